/**
 * Checks what crosses Redis between a batch and its workers (hostile input: anyone who can
 * write to the queue's Redis can put anything there): a case job before a worker runs it, and
 * a worker's answer before the batch writes its files. Each check names the first problems.
 */
import { Type } from '@sinclair/typebox';
import { problems } from '../../../shared/protocol/contract/define';
import { AssertionSchema } from '../../../shared/eval/dataset';
import { validateThread } from '../../../shared/thread/validate';
import { RunRecordSchema } from '../../../shared/protocol/contract/host-methods';
import type { CaseJob, CaseRunOutput } from './case-run';
import type { Thread } from '../../../shared/thread/schema';

const JobShape = Type.Object({
  batchId: Type.String({ minLength: 1, maxLength: 200 }),
  caseId: Type.String({ minLength: 1, maxLength: 1000 }),
  variant: Type.String({ minLength: 1, maxLength: 1000 }),
  thread: Type.Unknown(),
  assertions: Type.Array(AssertionSchema),
  expected: Type.Optional(Type.String()),
  vars: Type.Record(Type.String(), Type.String()),
  maxTurns: Type.Integer({ minimum: 1, maximum: 100_000 }),
  attempt: Type.Integer({ minimum: 1 }),
  file: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\]+\\.json$' }),
});

/** The job, or why it cannot run. */
export function checkCaseJob(value: unknown): { ok: true; job: CaseJob } | { ok: false; problem: string } {
  const p = problems(JobShape, value);
  if (p.length) return { ok: false, problem: `malformed case job: ${p.join('; ')}` };
  const v = value as CaseJob;
  if (v.file === '.json' || v.file.startsWith('..')) return { ok: false, problem: 'malformed case job: file' };
  const t = validateThread(v.thread);
  if (!t.ok) return { ok: false, problem: `malformed case job: thread ${t.errors.slice(0, 3).map((e) => `${e.pointer}: ${e.message}`).join('; ')}` };
  return { ok: true, job: { ...v, thread: t.thread as Thread } };
}

/** A worker's answer, or why it cannot be used. */
export function checkCaseOutput(value: unknown): { ok: true; out: CaseRunOutput } | { ok: false; problem: string } {
  if (!value || typeof value !== 'object') return { ok: false, problem: 'the worker answered nothing usable' };
  const v = value as CaseRunOutput;
  if (!v.result || typeof v.result !== 'object' || typeof v.result.status !== 'string' || !Array.isArray(v.result.assertions)) {
    return { ok: false, problem: 'the worker\'s answer has no result' };
  }
  if (v.run !== undefined) {
    const p = problems(RunRecordSchema, v.run);
    if (p.length) return { ok: false, problem: `the worker's run record is malformed: ${p.join('; ')}` };
  }
  if (v.thread !== undefined && !validateThread(v.thread).ok) return { ok: false, problem: 'the worker\'s case thread is malformed' };
  return { ok: true, out: v };
}
