/**
 * Size bounds of the messages a runner posts to the host (docs/architecture.md#backpressure):
 * the host refuses a message over its bound (main/core/bridge/validate.ts), and the runner keeps
 * a model call's record under it (agent-runner/emit/record-chain.ts).
 */

/** Size bounds in bytes (JSON length, approximately bytes). */
export interface FrameLimits {
  /** One `llm_delta`. Default 1 MiB. */
  maxDeltaBytes: number;
  /** One `tree_update` / `run_result` / `log` (final outputs may carry images). Default 8 MiB. */
  maxFrameBytes: number;
  /** One `llm_record` (raw request and recorded stream). Default 32 MiB. */
  maxRecordBytes: number;
}

export const DEFAULT_LIMITS: FrameLimits = {
  maxDeltaBytes: 1024 * 1024,
  maxFrameBytes: 8 * 1024 * 1024,
  maxRecordBytes: 32 * 1024 * 1024,
};

/** JSON length of a value, or Infinity when it cannot be serialized. */
export function jsonSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Infinity;
  }
}

/** Why a message of `type` and `size` bytes is over `bound`: the reason the host gives, and the runner's stand-in record repeats. */
export function overBound(type: string, size: number, bound: number): string {
  return `${type} of ${size} bytes exceeds the bound of ${bound} bytes`;
}

/**
 * The request of a model call's record that was not kept: says why, in place of the request
 * (the record's events are dropped too). `reason` is {@link overBound}'s, or the host's.
 */
export function notKeptRequest(reason: string): { omitted: string } {
  return { omitted: `Not kept: the raw request and stream events of this call (${reason.replace(/^llm_record of /, '')}).` };
}
