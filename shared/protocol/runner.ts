/**
 * Messages between the host and one agent-runner process (docs/architecture.md#processes-and-state). The runner reports a
 * run only as envelopes plus a few side messages; it never talks to a renderer. The messages are
 * defined once in ./contract/runner-channel.ts; this module re-exports their derived types and
 * holds the helpers around them.
 */
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  MAX_IDLE_TIMEOUT_MS,
  MIN_IDLE_TIMEOUT_MS,
  type HostToRunner,
  type LlmRecord,
  type ModelPrice,
  type ProviderConfig,
  type RunnerToHost,
  type RunSpec,
} from './contract/runner-channel';

export { DEFAULT_IDLE_TIMEOUT_MS, MAX_IDLE_TIMEOUT_MS, MIN_IDLE_TIMEOUT_MS };
export type { HostToRunner, LlmRecord, ModelPrice, ProviderConfig, RunnerToHost, RunSpec };

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

/** Cost in USD of one call's usage at `price`. */
export function usageCost(usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number }, price: ModelPrice): number {
  const cached = price.cacheRead !== undefined ? (usage.cacheReadTokens ?? 0) : 0;
  return ((usage.inputTokens - cached) * price.input + cached * (price.cacheRead ?? 0) + usage.outputTokens * price.output) / 1e6;
}

/**
 * The one small port a run sees, whether it is an Electron MessagePort, `process.parentPort`
 * or a Node IPC channel. `post` must not throw when the other end is gone.
 */
export interface Port<In, Out> {
  post(message: Out): void;
  onMessage(listener: (message: In) => void): () => void;
}

/**
 * Set to `1` in a pooled runner process's environment (RunSupervisor's `pool` option): after a
 * run's `done` it stays and waits for the next `start` instead of exiting
 * (docs/architecture.md#processes-and-state).
 */
export const RUNNER_POOLED_ENV = 'STEPWISE_RUNNER_POOLED';
