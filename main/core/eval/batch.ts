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
import { appendResult, endResultsLine, readResults, type BatchSpec } from './batch-files';

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

/** Every case × variant job of a batch, in dataset order, with unique file names. */
export function planJobs(spec: BatchSpec): CaseJob[] {
  const taken = new Set<string>();
  const jobs: CaseJob[] = [];
  for (const c of spec.dataset.cases) {
    for (const v of spec.variants) {
      let file = caseFileName(c.id, v.name);
      for (let n = 2; taken.has(file.toLowerCase()); n++) file = caseFileName(c.id, v.name, ` (${n})`);
      taken.add(file.toLowerCase());
      const assertions: Assertion[] = [...spec.dataset.assertions, ...(c.assertions ?? [])];
      const job: CaseJob = {
        batchId: spec.id,
        caseId: c.id,
        variant: v.name,
        thread: caseThread(spec.thread, c, v, spec.name),
        assertions,
        vars: c.vars,
        maxTurns: spec.maxTurns,
        attempt: 1,
        file,
      };
      if (c.expected !== undefined) job.expected = c.expected;
      jobs.push(job);
    }
  }
  return jobs;
}

/** Runs (or resumes) a batch; resolves when every case finished or the batch was cancelled. */
export async function runBatch(o: RunBatchOptions): Promise<BatchOutcome> {
  const { spec, dir, scheduler } = o;
  const earlier = await readResults(dir);
  if (earlier.cutShort) await endResultsLine(dir);
  const results = [...earlier.results];
  const finished = new Set(results.map((r) => `${r.caseId}\u0000${r.variant}`));
  const jobs = planJobs(spec).filter((j) => !finished.has(`${j.caseId}\u0000${j.variant}`));
  const total = results.length + jobs.length;
  const controller = new AbortController();
  const abort = () => controller.abort();
  o.signal?.addEventListener('abort', abort, { once: true });
  if (o.signal?.aborted) controller.abort();
  let running = 0;
  const durations: number[] = [];
  const progress = () => {
    const done = results.length;
    const failed = results.filter((r) => r.status !== 'passed').length;
    const p: BatchProgress = { total, done, running, failed };
    if (durations.length) {
      const mean = durations.reduce((a, b) => a + b, 0) / durations.length;
      p.etaMs = Math.round((mean * (total - done)) / Math.max(1, spec.concurrency));
    }
    o.onProgress?.(p);
  };
  progress();
  const queue = new PQueue({ concurrency: Math.max(1, spec.concurrency) });
  for (const job of jobs) {
    void queue.add(async () => {
      if (controller.signal.aborted) return;
      running++;
      progress();
      const started = Date.now();
      try {
        let out: CaseRunOutput;
        try {
          out = await scheduler.run(job, dir, controller.signal);
        } catch (err) {
          // The scheduler itself failed (a queue that went away): the case could not run. It is
          // not recorded as finished, so a resumed batch runs it again.
          const now = Date.now();
          results.push({ caseId: job.caseId, variant: job.variant, status: 'error', error: `could not run: ${(err as Error).message}`, assertions: [], startedAt: started, endedAt: now, attempts: job.attempt });
          return;
        }
        if (controller.signal.aborted && out.result.status === 'error') return; // cancelled: a resume runs it again
        results.push(out.result);
        durations.push(Date.now() - started);
        await appendResult(dir, out.result);
        o.onResult?.(out.result, out);
      } finally {
        running--;
        progress();
      }
    });
  }
  await queue.onIdle();
  o.signal?.removeEventListener('abort', abort);
  return { results, cancelled: controller.signal.aborted, skippedLines: earlier.skipped };
}
