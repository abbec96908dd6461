/**
 * Messages between the host and one agent-runner process (docs/architecture.md#processes-and-state). The runner reports a
 * run only as envelopes plus the side messages below; it never talks to a renderer.
 */
import type { McpTransportMode } from './mcp';
import type { Thread, RunMode } from '../thread/schema';
import type { RunnerEnvelope } from './envelopes';

/** A provider entry of settings/providers.json. `apiKey` is a literal or `$ENV_NAME`. */
export interface ProviderConfig {
  id: string;
  api: 'openai-completions' | 'openai-responses' | 'anthropic-messages' | 'scripted' | 'replay';
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Prices per model id, USD per million tokens, for the cost shown with usage. */
  prices?: Record<string, ModelPrice>;
  /**
   * Idle timeout of one model call, ms: the call ends as an error ("the provider sent nothing
   * for N s", partial reply kept) when no byte arrived for this long while waiting for the
   * response or for the next piece of its body. Keep-alives (SSE comments, Anthropic `ping`) count.
   * Default `DEFAULT_IDLE_TIMEOUT_MS`; see `idleTimeoutProblem` for the allowed range.
   */
  idleTimeoutMs?: number;
}

/** Idle timeout of a model call when its provider sets none: 2 minutes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** Smallest `idleTimeoutMs`, ms. */
export const MIN_IDLE_TIMEOUT_MS = 100;
/**
 * Largest `idleTimeoutMs`, ms: Node's own fetch (undici) ends a connection that sent nothing for
 * 300 s by itself, so a longer idle timeout could never apply.
 */
export const MAX_IDLE_TIMEOUT_MS = 300_000;

/**
 * What is wrong with a provider's `idleTimeoutMs` (a sentence starting with "must"), or
 * undefined when it is valid. Absent is valid (the default applies).
 */
export function idleTimeoutProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= MIN_IDLE_TIMEOUT_MS && value <= MAX_IDLE_TIMEOUT_MS) return undefined;
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  return `must be a whole number of milliseconds from ${MIN_IDLE_TIMEOUT_MS} to ${MAX_IDLE_TIMEOUT_MS} (default ${DEFAULT_IDLE_TIMEOUT_MS}), not ${shown.length > 40 ? shown.slice(0, 40) + '…' : shown}`;
}

/** A model's price, USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Cached input tokens read, when the provider bills them apart. */
  cacheRead?: number;
}

/** Cost in USD of one call's usage at `price`. */
export function usageCost(usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number }, price: ModelPrice): number {
  const cached = price.cacheRead !== undefined ? (usage.cacheReadTokens ?? 0) : 0;
  return ((usage.inputTokens - cached) * price.input + cached * (price.cacheRead ?? 0) + usage.outputTokens * price.output) / 1e6;
}

/** Everything one run needs; sent once as the `start` message. */
export interface RunSpec {
  runId: string;
  threadId: string;
  /** The thread as it was when the run started (read-only while the run runs). */
  thread: Thread;
  /** step: one LLM step; react: loop with tools; tool: execute pending tool calls and stop. */
  mode: RunMode;
  /** ReAct turn cap. Default 25. */
  maxTurns?: number;
  /** Tool step: which pending tool calls to run (all pending ones when absent). */
  toolCallIds?: string[];
  providers: ProviderConfig[];
  /** $STEPWISE_HOME, for replay lookups and agent-tool thread files. */
  home: string;
  /** Workspace folder, to resolve agent tools' `threadPath`. */
  workspaceDir: string;
  /** Whether an mcp-host port is attached (MCP tools fail clearly without one). */
  mcp?: boolean;
  /** How MCP traffic reaches the mcp-host (see shared/protocol/mcp.ts). Default `relay`. */
  mcpTransport?: McpTransportMode;
}

/** The raw request an LLM node sent and the raw stream events it received (inspector, replay). */
export interface LlmRecord {
  v: 1;
  type: 'llm_record';
  runId: string;
  nodeId: string;
  /** Provider api and the exact request body sent. */
  api: string;
  request: unknown;
  /** Raw stream events in arrival order; `t` is ms since the request was sent. */
  events: { t: number; data: unknown }[];
}

export type HostToRunner =
  | { type: 'start'; spec: RunSpec }
  | { type: 'cancel'; reason?: string }
  /** The user answered an elicitation or typed a tool result while the run waits. */
  | { type: 'input'; nodeId: string; value: unknown };

export type RunnerToHost =
  | RunnerEnvelope
  | LlmRecord
  | { v: 1; type: 'log'; runId: string; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  /** The runner finished posting; it exits right after. */
  | { v: 1; type: 'done'; runId: string };

/**
 * The one small port a run sees, whether it is an Electron MessagePort, `process.parentPort`
 * or a Node IPC channel. `post` must not throw when the other end is gone.
 */
export interface Port<In, Out> {
  post(message: Out): void;
  onMessage(listener: (message: In) => void): () => void;
}
