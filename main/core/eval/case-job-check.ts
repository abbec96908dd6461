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
import { isSafeId } from '../journal/journal';
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
  if (!isSafeId(t.thread.id)) return { ok: false, problem: `malformed case job: thread id ${JSON.stringify(String(t.thread.id).slice(0, 80))} is not a safe id (1–200 of A–Z a–z 0–9 . _ -)` };
  return { ok: true, job: { ...v, thread: t.thread as Thread } };
}

/**
 * A worker's answer to `job`, or why it cannot be used. Beyond its shape, the answer must be about
 * the job: the result's case and variant, the thread's id, the run's thread id and every node's
 * run id match; the run id is a safe id (it names a file in the batch's home).
 */
export function checkCaseOutput(value: unknown, job: Pick<CaseJob, 'caseId' | 'variant' | 'thread'>): { ok: true; out: CaseRunOutput } | { ok: false; problem: string } {
  if (!value || typeof value !== 'object') return { ok: false, problem: 'the worker answered nothing usable' };
  const v = value as CaseRunOutput;
  if (!v.result || typeof v.result !== 'object' || typeof v.result.status !== 'string' || !Array.isArray(v.result.assertions)) {
    return { ok: false, problem: 'the worker\'s answer has no result' };
  }
  const wrong = (what: string, got: unknown) => ({ ok: false as const, problem: `the worker's answer is not about this case: ${what} ${JSON.stringify(String(got).slice(0, 80))}` });
  if (v.result.caseId !== job.caseId) return wrong('its result is for case', v.result.caseId);
  if (v.result.variant !== job.variant) return wrong('its result is for variant', v.result.variant);
  if (v.result.threadId !== undefined && v.result.threadId !== job.thread.id) return wrong('its result is for thread', v.result.threadId);
  if (v.run !== undefined) {
    const p = problems(RunRecordSchema, v.run);
    if (p.length) return { ok: false, problem: `the worker's run record is malformed: ${p.join('; ')}` };
    if (v.thread === undefined) return { ok: false, problem: 'the worker\'s answer has a run record but no case thread' };
    if (v.run.threadId !== job.thread.id) return wrong('its run is of thread', v.run.threadId);
    if (!isSafeId(v.run.runId)) return { ok: false, problem: `the worker's run id ${JSON.stringify(String(v.run.runId).slice(0, 80))} is not a safe id (1–200 of A–Z a–z 0–9 . _ -)` };
    const foreign = v.run.nodes.find((n) => n.runId !== v.run!.runId);
    if (foreign) return wrong(`its run ${JSON.stringify(v.run.runId)} has a node of run`, foreign.runId);
    if (v.result.runId !== undefined && v.result.runId !== v.run.runId) return wrong('its result is for run', v.result.runId);
  }
  if (v.thread !== undefined) {
    if (!validateThread(v.thread).ok) return { ok: false, problem: 'the worker\'s case thread is malformed' };
    if (v.thread.id !== job.thread.id) return wrong('its case thread is', v.thread.id);
  }
  return { ok: true, out: v };
}
