/**
 * A batch run: every case of a dataset × every variant, on a scheduler, at most `concurrency`
 * at a time (p-queue), each finished case appended to the batch's results as it finishes.
 * Cancel stops starting cases and cancels the running ones (they are not recorded); resume runs
 * only the cases the results file does not have. Progress: done, running, failed, time left.
 */
import PQueue from 'p-queue';
import type { CaseResult } from '../../../shared/eval/results';
import type { Assertion } from '../../../shared/eval/dataset';
import { caseThread } from './case-thread';
import { caseFileName, type CaseJob, type CaseRunOutput } from './case-run';
import type { CaseScheduler } from './scheduler';
import { readResults, type BatchSpec } from './batch-files';
import { CaseStoreWriter } from './case-store';

/** Where a batch is. `etaMs` is absent until a case has finished. */
export interface BatchProgress {
  total: number;
  done: number;
  running: number;
  /** Finished cases that did not pass (failed or error). */
  failed: number;
  etaMs?: number;
}

export interface RunBatchOptions {
  spec: BatchSpec;
  /** The batch folder (batch-files.ts). */
  dir: string;
  scheduler: CaseScheduler;
  signal?: AbortSignal;
  onProgress?(p: BatchProgress): void;
  onResult?(r: CaseResult, out: CaseRunOutput): void;
}

/** The finished batch: every result (earlier ones of a resumed batch included), and whether it was cancelled. */
export interface BatchOutcome {
  results: CaseResult[];
  cancelled: boolean;
  /** Line numbers (1-based) of result lines of an earlier run that could not be read (their cases ran again). */
  skippedLines: number[];
}

/** Where a job's case and variant are in its batch, and its case thread's unique file name. */
interface PlannedJob {
  caseIndex: number;
  variantIndex: number;
  file: string;
}

/** Every case × variant of a batch, in dataset order, with unique file names (the jobs are made as they run). */
function planFiles(spec: BatchSpec): PlannedJob[] {
  const taken = new Set<string>();
  const out: PlannedJob[] = [];
  spec.dataset.cases.forEach((c, caseIndex) => {
    spec.variants.forEach((v, variantIndex) => {
      let file = caseFileName(c.id, v.name);
      for (let n = 2; taken.has(file.toLowerCase()); n++) file = caseFileName(c.id, v.name, ` (${n})`);
      taken.add(file.toLowerCase());
      out.push({ caseIndex, variantIndex, file });
    });
  });
  return out;
}

/** The job of a planned case × variant: its case thread made now (one at a time, not all at once). */
function jobOf(spec: BatchSpec, p: PlannedJob): CaseJob {
  const c = spec.dataset.cases[p.caseIndex]!;
  const v = spec.variants[p.variantIndex]!;
  const assertions: Assertion[] = [...spec.dataset.assertions, ...(c.assertions ?? [])];
  const job: CaseJob = { batchId: spec.id, caseId: c.id, variant: v.name, thread: caseThread(spec.thread, c, v, spec.name), assertions, vars: c.vars, maxTurns: spec.maxTurns, attempt: 1, file: p.file };
  if (c.expected !== undefined) job.expected = c.expected;
  return job;
}

/** Every case × variant job of a batch, in dataset order, with unique file names. */
export function planJobs(spec: BatchSpec): CaseJob[] {
  return planFiles(spec).map((p) => jobOf(spec, p));
}

/**
 * Runs (or resumes) a batch; resolves when every case finished or the batch was cancelled.
 * Finished cases go to the batch's case store (case-store.ts) in groups; `onResult` and the
 * progress count a case once its result is on disk.
 */
export async function runBatch(o: RunBatchOptions): Promise<BatchOutcome> {
  const { spec, dir, scheduler } = o;
  const earlier = await readResults(dir);
  const results = [...earlier.results];
  const key = (caseId: string, variant: string) => `${caseId}\u0000${variant}`;
  const finished = new Set(results.map((r) => key(r.caseId, r.variant)));
  const plans = planFiles(spec).filter((p) => !finished.has(key(spec.dataset.cases[p.caseIndex]!.id, spec.variants[p.variantIndex]!.name)));
  finished.clear();
  const total = results.length + plans.length;
  const controller = new AbortController();
  const abort = () => controller.abort();
  o.signal?.addEventListener('abort', abort, { once: true });
  if (o.signal?.aborted) controller.abort();
  const store = new CaseStoreWriter(dir);
  let running = 0;
  let failed = results.filter((r) => r.status !== 'passed').length;
  let durationSum = 0;
  let durationCount = 0;
  const progress = () => {
    const p: BatchProgress = { total, done: results.length, running, failed };
    if (durationCount) p.etaMs = Math.round((durationSum / durationCount) * (total - results.length) / Math.max(1, spec.concurrency));
    o.onProgress?.(p);
  };
  const record = (r: CaseResult) => {
    results.push(r);
    if (r.status !== 'passed') failed++;
  };
  progress();
  const queue = new PQueue({ concurrency: Math.max(1, spec.concurrency) });
  const acks = new Set<Promise<void>>();
  let writeError: Error | undefined;
  for (const plan of plans) {
    void queue.add(async () => {
      if (controller.signal.aborted) return;
      const job = jobOf(spec, plan);
      running++;
      progress();
      const started = Date.now();
      let out: CaseRunOutput;
      try {
        out = await scheduler.run(job, dir, controller.signal);
      } catch (err) {
        // The scheduler itself failed (a queue that went away): the case could not run. It is
        // not recorded as finished, so a resumed batch runs it again.
        running--;
        record({ caseId: job.caseId, variant: job.variant, status: 'error', error: `could not run: ${(err as Error).message}`, assertions: [], startedAt: started, endedAt: Date.now(), attempts: job.attempt });
        progress();
        return;
      }
      running--;
      if (controller.signal.aborted && out.result.status === 'error') {
        progress();
        return; // cancelled: a resume runs it again
      }
      durationSum += Date.now() - started;
      durationCount++;
      const kept = out.unsaved && out.thread ? { file: job.file, thread: out.thread, ...(out.run ? { run: out.run } : {}) } : undefined;
      // The slot is free for the next case now; this one is acknowledged once it is on disk.
      const written = store.add(out.result, kept).then(
        () => {
          record(out.result);
          o.onResult?.(out.result, out);
          progress();
        },
        (err: unknown) => {
          writeError ??= err as Error;
          controller.abort();
        },
      );
      acks.add(written);
      void written.finally(() => acks.delete(written));
    });
  }
  await queue.onIdle();
  await store.close();
  await Promise.all([...acks]);
  o.signal?.removeEventListener('abort', abort);
  if (writeError) throw new Error(`the batch's results could not be written in ${dir}: ${writeError.message}`);
  return { results, cancelled: controller.signal.aborted, skippedLines: earlier.skipped };
}
