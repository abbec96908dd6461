/**
 * Every message on the `run` channel between the host and one agent-runner process, once, by
 * `type` (docs/architecture.md#processes-and-state). The host sends {@link HOST_TO_RUNNER}; the
 * runner checks each message it receives against the entry its `type` names. The runner sends
 * {@link RUNNER_TO_HOST}; the bridge checks each one (size, then this schema, then the run it
 * belongs to: main/core/bridge/validate.ts). shared/protocol/runner.ts derives its types here.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { RunSkillSchema } from '../../skills/skill-info';
import { RunModeSchema, ThreadSchema } from '../../thread/schema';
import { PROTOCOL_VERSION, RUNNER_ENVELOPES } from '../envelopes';
import { literals, unionOf, type MessageOf } from './define';

const V = T.Literal(PROTOCOL_VERSION);
const RunId = T.String({ minLength: 1, maxLength: 200 });

/** Idle timeout of a model call when its provider sets none: 2 minutes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** Smallest `idleTimeoutMs`, ms. */
export const MIN_IDLE_TIMEOUT_MS = 100;
/**
 * Largest `idleTimeoutMs`, ms: Node's own fetch (undici) ends a connection that sent nothing for
 * 300 s by itself, so a longer idle timeout could never apply.
 */
export const MAX_IDLE_TIMEOUT_MS = 300_000;

/** A model's price, USD per million tokens. */
export const ModelPriceSchema = T.Object({
  input: T.Number(),
  output: T.Number(),
  /** Cached input tokens read, when the provider bills them apart. */
  cacheRead: T.Optional(T.Number()),
});
export type ModelPrice = Static<typeof ModelPriceSchema>;

/** The provider APIs a runner speaks. */
export const ProviderApiSchema = literals('openai-completions', 'openai-responses', 'anthropic-messages', 'scripted', 'replay');

/** A provider entry of settings/providers.json. `apiKey` is a literal or `$ENV_NAME`. */
export const ProviderConfigSchema = T.Object({
  id: T.String({ minLength: 1 }),
  api: ProviderApiSchema,
  /** The connection profile's name as shown ("OpenAI work"); default: the id. */
  name: T.Optional(T.String({ maxLength: 100 })),
  /** The preset it was made from (shared/protocol/provider-presets.ts). */
  preset: T.Optional(T.String()),
  baseUrl: T.Optional(T.String()),
  apiKey: T.Optional(T.String()),
  headers: T.Optional(T.Record(T.String(), T.String())),
  /** Prices per model id, USD per million tokens, for the cost shown with usage. */
  prices: T.Optional(T.Record(T.String(), ModelPriceSchema)),
  /**
   * Idle timeout of one model call, ms: the call ends as an error ("the provider sent nothing
   * for N s", partial reply kept) when no byte arrived for this long while waiting for the
   * response or for the next piece of its body. Keep-alives (SSE comments, Anthropic `ping`) count.
   * Default {@link DEFAULT_IDLE_TIMEOUT_MS}; the range is the one `idleTimeoutProblem` states.
   */
  idleTimeoutMs: T.Optional(T.Integer({ minimum: MIN_IDLE_TIMEOUT_MS, maximum: MAX_IDLE_TIMEOUT_MS })),
});
export type ProviderConfig = Static<typeof ProviderConfigSchema>;

/** Everything one run needs; sent once as the `start` message. */
export const RunSpecSchema = T.Object({
  runId: RunId,
  threadId: T.String({ minLength: 1 }),
  /** The thread as it was when the run started (read-only while the run runs). */
  thread: ThreadSchema,
  /** step: one LLM step; react: loop with tools; tool: execute pending tool calls and stop. */
  mode: RunModeSchema,
  /** ReAct turn cap. Default 25. */
  maxTurns: T.Optional(T.Integer({ minimum: 1 })),
  /** Tool step: which pending tool calls to run (all pending ones when absent). */
  toolCallIds: T.Optional(T.Array(T.String())),
  providers: T.Array(ProviderConfigSchema),
  /** $STEPWISE_HOME, for replay lookups and agent-tool thread files. */
  home: T.String({ minLength: 1 }),
  /** Workspace folder, to resolve agent tools' `threadPath`. */
  workspaceDir: T.String({ minLength: 1 }),
  /** Whether an mcp-host port is attached (MCP tools fail clearly without one). */
  mcp: T.Optional(T.Boolean()),
  /**
   * How MCP traffic reaches the mcp-host (shared/protocol/mcp.ts, McpTransportMode): `relay`
   * through the host, or a brokered `port`. Default `relay`.
   */
  mcpTransport: T.Optional(literals('relay', 'port')),
  /**
   * Time travel: re-run run `runId` from its model call `fromCall` (1-based). Its calls before
   * that one are played back from their recordings and their tools' recorded results reused;
   * the rest runs live (docs/architecture.md#branches-and-time-travel).
   */
  fromRun: T.Optional(T.Object({ runId: RunId, fromCall: T.Integer({ minimum: 1 }) })),
  /**
   * The thread's enabled skills the host found, with their folders: the `skill` tool reads
   * these and nothing else (the runner never searches home folders).
   */
  skills: T.Optional(T.Array(RunSkillSchema)),
});
export type RunSpec = Static<typeof RunSpecSchema>;

/** Host → runner messages, by type. */
export const HOST_TO_RUNNER = {
  /** The run to run; the first message, sent once. */
  start: T.Object({ type: T.Literal('start'), spec: RunSpecSchema }),
  cancel: T.Object({ type: T.Literal('cancel'), reason: T.Optional(T.String()) }),
  /** The user answered an elicitation or typed a tool result while the run waits. */
  input: T.Object({ type: T.Literal('input'), nodeId: T.String({ minLength: 1 }), value: T.Unknown() }),
};
export const HostToRunnerSchema = unionOf(HOST_TO_RUNNER);
export type HostToRunner = MessageOf<typeof HOST_TO_RUNNER>;

/** The raw request an LLM node sent and the raw stream events it received (inspector, replay). */
export const LlmRecordSchema = T.Object({
  v: V,
  type: T.Literal('llm_record'),
  runId: RunId,
  nodeId: T.String({ minLength: 1 }),
  /** Provider api and the exact request body sent. */
  api: T.String(),
  /** The request body, whole or (with `requestBase`) what it adds to an earlier record's. */
  request: T.Unknown(),
  /**
   * How `request` extends the request of an earlier record of the run (shared/protocol/request-delta.ts
   * `RequestBase`, docs/architecture.md#stored-requests); absent: `request` is whole. Its shape
   * is checked where it is read, so one damaged record cannot make a run unreadable.
   */
  requestBase: T.Optional(T.Unknown()),
  /** Raw stream events in arrival order; `t` is ms since the request was sent. */
  events: T.Array(T.Object({ t: T.Number(), data: T.Unknown() })),
});
export type LlmRecord = Static<typeof LlmRecordSchema>;

/** Runner → host messages, by type: the envelopes a run posts and its side messages. */
export const RUNNER_TO_HOST = {
  ...RUNNER_ENVELOPES,
  llm_record: LlmRecordSchema,
  log: T.Object({
    v: V,
    type: T.Literal('log'),
    runId: RunId,
    level: literals('debug', 'info', 'warn', 'error'),
    message: T.String(),
  }),
  /** The runner finished posting; it exits right after. */
  done: T.Object({ v: V, type: T.Literal('done'), runId: RunId }),
};
export const RunnerToHostSchema = unionOf(RUNNER_TO_HOST);
export type RunnerToHost = MessageOf<typeof RUNNER_TO_HOST>;
