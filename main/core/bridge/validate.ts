/**
 * Checks every message a runner posts before the bridge uses it (docs/architecture.md#envelopes): a known type,
 * the TypeBox schema of that type (compiled checkers), the `runId` of the process that sent
 * it, and a size bound. A rejected message is reported with the reason; nothing else happens.
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Type } from '@sinclair/typebox';
import { LlmDeltaSchema, RunResultSchema, TreeUpdateSchema } from '../../../shared/protocol/envelopes';
import type { LlmDelta, RunResult, TreeUpdate } from '../../../shared/protocol/envelopes';
import type { LlmRecord } from '../../../shared/protocol/runner';

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

const LlmRecordSchema = Type.Object({
  v: Type.Literal(1),
  type: Type.Literal('llm_record'),
  runId: Type.String({ minLength: 1 }),
  nodeId: Type.String({ minLength: 1 }),
  api: Type.String(),
  request: Type.Unknown(),
  events: Type.Array(Type.Object({ t: Type.Number(), data: Type.Unknown() })),
});
const LogSchema = Type.Object({
  v: Type.Literal(1),
  type: Type.Literal('log'),
  runId: Type.String({ minLength: 1 }),
  level: Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]),
  message: Type.String(),
});
const DoneSchema = Type.Object({ v: Type.Literal(1), type: Type.Literal('done'), runId: Type.String({ minLength: 1 }) });

const checkers = {
  tree_update: TypeCompiler.Compile(TreeUpdateSchema),
  llm_delta: TypeCompiler.Compile(LlmDeltaSchema),
  run_result: TypeCompiler.Compile(RunResultSchema),
  llm_record: TypeCompiler.Compile(LlmRecordSchema),
  log: TypeCompiler.Compile(LogSchema),
  done: TypeCompiler.Compile(DoneSchema),
};

/** A message that passed every check, with its measured size. */
export type CheckedMessage =
  | { type: 'tree_update'; msg: TreeUpdate; size: number }
  | { type: 'llm_delta'; msg: LlmDelta; size: number }
  | { type: 'run_result'; msg: RunResult; size: number }
  | { type: 'llm_record'; msg: LlmRecord; size: number }
  | { type: 'log'; msg: { runId: string; level: 'debug' | 'info' | 'warn' | 'error'; message: string }; size: number }
  | { type: 'done'; msg: { runId: string }; size: number };

export type CheckResult = { ok: true; value: CheckedMessage } | { ok: false; reason: string };

/** JSON length of a value, or Infinity when it cannot be serialized. */
export function jsonSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Infinity;
  }
}

/** Check one message posted by the process of run `runId`. */
export function checkRunnerMessage(runId: string, msg: unknown, limits: FrameLimits = DEFAULT_LIMITS): CheckResult {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return { ok: false, reason: 'not an object' };
  const type = (msg as { type?: unknown }).type;
  if (typeof type !== 'string' || !(type in checkers)) {
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
  if (size > bound) return { ok: false, reason: `${t} of ${size} bytes exceeds the bound of ${bound} bytes` };
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
