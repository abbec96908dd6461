/**
 * Checks every message a runner posts before the bridge uses it (docs/architecture.md#envelopes): a known type,
 * a size bound, the TypeBox schema of that type (compiled from the contract's RUNNER_TO_HOST
 * table, shared/protocol/contract/runner-channel.ts), and the `runId` of the process that sent
 * it. A rejected message is reported with the reason; nothing else happens.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { RUNNER_TO_HOST } from '../../../shared/protocol/contract/runner-channel';
import type { RunnerToHost } from '../../../shared/protocol/runner';
import { DEFAULT_LIMITS, jsonSize, notKeptRequest, overBound, type FrameLimits } from '../../../shared/protocol/frame-limits';

type RunnerMessageType = keyof typeof RUNNER_TO_HOST;

/** One compiled checker per message type of the contract's runner → host table. */
const checkers = Object.fromEntries(Object.entries(RUNNER_TO_HOST).map(([type, schema]) => [type, TypeCompiler.Compile<TSchema>(schema)])) as Record<
  RunnerMessageType,
  TypeCheck<TSchema>
>;

/** A message that passed every check, with its measured size (one variant per message type). */
export type CheckedMessage = { [K in RunnerMessageType]: { type: K; msg: Static<(typeof RUNNER_TO_HOST)[K]>; size: number } }[RunnerMessageType];

export type CheckResult = { ok: true; value: CheckedMessage } | { ok: false; reason: string };

/** Check one message posted by the process of run `runId`. */
export function checkRunnerMessage(runId: string, msg: unknown, limits: FrameLimits = DEFAULT_LIMITS): CheckResult {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return { ok: false, reason: 'not an object' };
  const type = (msg as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(checkers, type)) {
    return { ok: false, reason: `unknown message type ${JSON.stringify(String(type)).slice(0, 80)}` };
  }
  const t = type as keyof typeof checkers;
  // Size first: never walk a huge object with the schema checker.
  let size: number;
  if (t === 'llm_delta') {
    const d = (msg as { delta?: unknown }).delta;
    size = typeof d === 'string' ? d.length + 256 : jsonSize(msg);
  } else {
    size = jsonSize(msg);
  }
  const bound = t === 'llm_delta' ? limits.maxDeltaBytes : t === 'llm_record' ? limits.maxRecordBytes : limits.maxFrameBytes;
  if (size > bound) return { ok: false, reason: overBound(t, size, bound) };
  const checker = checkers[t];
  if (!checker.Check(msg)) {
    const first = checker.Errors(msg).First();
    return { ok: false, reason: `invalid ${t}${first ? ` at ${first.path || '/'}: ${first.message}` : ''}` };
  }
  const m = msg as { runId: string; nodes?: { runId: string; id: string }[] };
  if (m.runId !== runId) return { ok: false, reason: `${t} names run ${JSON.stringify(m.runId)}, but this process runs ${runId}` };
  if (t === 'tree_update') {
    const stray = m.nodes!.find((n) => n.runId !== runId);
    if (stray) return { ok: false, reason: `tree_update node ${stray.id} belongs to run ${stray.runId}, not ${runId}` };
  }
  return { ok: true, value: { type: t, msg, size } as CheckedMessage };
}

/**
 * For an `llm_record` of run `runId` refused as too large: a record of the same model call that
 * says so in place of its request (events none), so the run keeps a trace of the call and the
 * raw request view says why it is empty. Undefined for anything else.
 */
export function oversizeRecordStandIn(runId: string, msg: unknown, reason: string): RunnerToHost | undefined {
  const m = msg as { type?: unknown; runId?: unknown; nodeId?: unknown; api?: unknown } | null;
  if (!m || typeof m !== 'object' || m.type !== 'llm_record' || m.runId !== runId || !reason.includes('exceeds the bound')) return undefined;
  if (typeof m.nodeId !== 'string' || !m.nodeId || m.nodeId.length > 200) return undefined;
  const api = typeof m.api === 'string' ? m.api.slice(0, 100) : 'unknown';
  return { v: 1, type: 'llm_record', runId, nodeId: m.nodeId, api, request: notKeptRequest(reason), events: [] };
}
