/**
 * The runner's check of what the host sends it on the `run` channel: each message against the
 * contract entry its `type` names (HOST_TO_RUNNER, shared/protocol/contract/runner-channel.ts).
 * index.ts ignores a bad `cancel` or `input` (logged) and refuses a bad `start` (the run fails
 * with the problem); nothing the host sends can crash the runner.
 */
import { HOST_TO_RUNNER, type HostToRunner } from '../shared/protocol/contract/runner-channel';
import { messageProblem } from '../shared/protocol/contract/define';

/** A checked message, or what is wrong with it (`type` when the message names a known one). */
export type HostMessageCheck = { ok: true; msg: HostToRunner } | { ok: false; type?: keyof typeof HOST_TO_RUNNER; problem: string };

/** Checks one received message; the problem is `path: message`, with at most three problems. */
export function checkHostMessage(msg: unknown): HostMessageCheck {
  const problem = messageProblem(HOST_TO_RUNNER, msg);
  if (problem === undefined) return { ok: true, msg: msg as HostToRunner };
  const type = msg && typeof msg === 'object' ? (msg as { type?: unknown }).type : undefined;
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(HOST_TO_RUNNER, type) ? { ok: false, type: type as keyof typeof HOST_TO_RUNNER, problem } : { ok: false, problem };
}

/** The run id a malformed `start` names, when it names one as a string (to report the failure under it). */
export function startRunId(msg: unknown): string | undefined {
  const id = (msg as { spec?: { runId?: unknown } } | null)?.spec?.runId;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : undefined;
}
