/**
 * Cases on workers on any machine, through BullMQ on Redis (`--queue redis://HOST:PORT`). The
 * batch adds one job per case × variant and waits for it; `stepwise worker` (worker.ts) runs
 * it with the same isolation as a local case (its run in its own runner process) and answers
 * with the result, the case thread and its run record, which the batch writes into its folder
 * and its home, so the case's run opens like any other. A worker killed mid-case stops renewing
 * its lock: BullMQ's stalled-job check hands the case to a worker again once
 * (`maxStalledCount: 1`); stalled a second time, it fails and the case ends `error`.
 */
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import { Queue, QueueEvents } from 'bullmq';
import type { CaseScheduler } from './scheduler';
import type { CaseJob, CaseRunOutput } from './case-run';
import { checkCaseOutput } from './case-job-check';
import { runFile } from '../journal/journal';

/** The BullMQ queue every batch and worker of a Redis share. */
export const QUEUE_NAME = 'stepwise-eval';

/** Parses `redis://[user:password@]HOST:PORT[/db]` (or `rediss://`); throws naming what is wrong. */
export function parseQueueUrl(s: string): URL {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new Error(`--queue must be a Redis URL such as redis://127.0.0.1:6379, not ${JSON.stringify(s)}`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`--queue must start with redis:// or rediss://, not ${u.protocol}//`);
  if (!u.hostname) throw new Error('--queue needs a host, e.g. redis://127.0.0.1:6379');
  if (u.pathname && u.pathname !== '/' && !/^\/\d+$/.test(u.pathname)) throw new Error(`--queue: the database after the port must be a number, not ${JSON.stringify(u.pathname.slice(1))}`);
  return u;
}

/** BullMQ connection options for `u` (workers block on Redis: no retry limit per request). */
export function connectionOf(u: URL): { url: string; maxRetriesPerRequest: null } {
  return { url: u.href, maxRetriesPerRequest: null };
}

/** The queue's address as shown to people: no user or password. */
export function shownQueue(u: URL): string {
  return `${u.protocol}//${u.hostname}:${u.port || '6379'}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
}

/** The job id of a case × variant of a batch (BullMQ ids may not contain ':'). */
export function jobIdOf(job: Pick<CaseJob, 'batchId' | 'caseId' | 'variant'>): string {
  return `case-${createHash('sha256').update(`${job.batchId}\u0000${job.caseId}\u0000${job.variant}`).digest('hex').slice(0, 40)}`;
}

export interface RedisSchedulerOptions {
  url: URL;
  /** The batch's home: where the case runs' records are written. */
  home: string;
  /**
   * Called once when no worker has taken any of this batch's cases `noWorkerAfterMs` (ms,
   * default {@link NO_WORKER_AFTER_MS}) after the first was added: likely no worker is running.
   */
  onNoWorker?: (waitedMs: number) => void;
  noWorkerAfterMs?: number;
  /**
   * A Redis connection error, as one line without the commands it carried (an AUTH command
   * would show the password); each different message once. Without a listener BullMQ prints
   * the whole error object on stderr.
   */
  onError?: (message: string) => void;
}

/** Redis refusing the credentials (an error's first line): retrying cannot help. */
export function isAuthRefusal(message: string): boolean {
  return /^(WRONGPASS|NOAUTH|ERR invalid password|ERR AUTH)/.test(message);
}

/** How long a batch waits for a worker to take a case before saying none has (ms). */
export const NO_WORKER_AFTER_MS = 10_000;

/**
 * Writes `text` to `file` only if no file is there (opened with `wx`); resolves false when one
 * is. A write that fails midway removes what it wrote, so no half file is left.
 */
async function writeNewFile(file: string, text: string): Promise<boolean> {
  let h;
  try {
    h = await open(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await h.writeFile(text);
    await h.sync();
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  } finally {
    await h.close().catch(() => {});
  }
  return true;
}

/**
 * Whether the run file `file` already holds exactly `run`: a worker sharing the batch's home
 * (one machine, both on the default ~/.stepwise) wrote it there itself, so there is nothing to
 * write and nothing written over. Any other content, or a file that does not parse, is false.
 */
async function holdsRun(file: string, run: unknown): Promise<boolean> {
  try {
    return isDeepStrictEqual(JSON.parse(await readFile(file, 'utf8')), run);
  } catch {
    return false;
  }
}

/**
 * The end of job `id` as QueueEvents reports it: `done` resolves with its return value or
 * rejects with its failure reason; `stop` stops listening (`done` then never settles).
 */
function finishEvent(events: QueueEvents, id: string): { done: Promise<unknown>; stop: () => void } {
  // BullMQ emits `completed:<jobId>` / `failed:<jobId>` too; its typings name only the plain events.
  const em = events as unknown as EventEmitter;
  let stop = () => {};
  const done = new Promise<unknown>((resolve, reject) => {
    const completed = (a: { returnvalue: unknown }) => {
      stop();
      resolve(a.returnvalue);
    };
    const failed = (a: { failedReason: string }) => {
      stop();
      reject(new Error(a.failedReason));
    };
    em.on(`completed:${id}`, completed);
    em.on(`failed:${id}`, failed);
    stop = () => {
      em.off(`completed:${id}`, completed);
      em.off(`failed:${id}`, failed);
    };
  });
  done.catch(() => {}); // read only when waitUntilFinished found no job
  return { done, stop };
}

/** The batch side of the Redis queue. */
export class RedisScheduler implements CaseScheduler {
  readonly name: string;
  private readonly queue: Queue;
  private readonly events: QueueEvents;
  /** This batch's job ids, until a worker has taken one of them. */
  private readonly added = new Set<string>();
  private taken = false;
  private noWorkerTimer: NodeJS.Timeout | undefined;
  private readonly errorsSaid = new Set<string>();
  private wasRefused = false;
  /** Rejects when Redis refuses the credentials (never resolves). */
  private readonly refused: Promise<never>;

  constructor(private readonly o: RedisSchedulerOptions) {
    this.name = shownQueue(o.url);
    // Retried with backoff while Redis is away (it may come), never after it refused the credentials.
    const connection = { ...connectionOf(o.url), retryStrategy: (times: number) => (this.wasRefused ? null : Math.min(1000 * times, 5000)) };
    this.queue = new Queue(QUEUE_NAME, { connection });
    this.events = new QueueEvents(QUEUE_NAME, { connection });
    let refuse!: (err: Error) => void;
    this.refused = new Promise<never>((_, reject) => (refuse = reject));
    this.refused.catch(() => {});
    const onError = (err: Error) => {
      const message = String(err?.message ?? err).split('\n')[0];
      if (isAuthRefusal(message)) {
        this.wasRefused = true;
        refuse(new Error(`Redis at ${this.name} refused the credentials: ${message}`));
      }
      if (this.errorsSaid.has(message)) return;
      this.errorsSaid.add(message);
      this.o.onError?.(`Redis at ${this.name}: ${message}`);
    };
    this.queue.on('error', onError);
    this.events.on('error', onError);
    this.events.on('active', ({ jobId }) => {
      if (this.taken || !this.added.has(jobId)) return;
      this.taken = true;
      this.added.clear();
      clearTimeout(this.noWorkerTimer);
    });
  }

  /** Starts the wait for a worker at the batch's first case (once). */
  private watchForWorker(id: string): void {
    if (this.taken) return;
    this.added.add(id);
    if (this.noWorkerTimer || !this.o.onNoWorker) return;
    const ms = this.o.noWorkerAfterMs ?? NO_WORKER_AFTER_MS;
    this.noWorkerTimer = setTimeout(() => {
      if (!this.taken) this.o.onNoWorker?.(ms);
    }, ms);
    this.noWorkerTimer.unref();
  }

  async run(job: CaseJob, dir: string, signal: AbortSignal): Promise<CaseRunOutput> {
    const startedAt = Date.now();
    const fail = (error: string, attempts = job.attempt): CaseRunOutput => ({
      result: { caseId: job.caseId, variant: job.variant, status: 'error', error, assertions: [], startedAt, endedAt: Date.now(), attempts, threadFile: job.file },
    });
    await Promise.race([this.events.waitUntilReady(), this.refused]);
    // Heard before the job is added: a job refused at once can fail, and be removed, before
    // waitUntilFinished listens, which then finds no job ("Missing key") instead of the reason.
    const early = finishEvent(this.events, jobIdOf(job));
    this.watchForWorker(jobIdOf(job));
    const added = await Promise.race([this.queue.add('case', { job }, { jobId: jobIdOf(job), attempts: 1, removeOnComplete: { age: 24 * 3600 }, removeOnFail: true }), this.refused]).catch((err: unknown) => {
      early.stop();
      throw err;
    });
    let onAbort = () => {};
    const cancelled = new Promise<'cancelled'>((resolve) => {
      if (signal.aborted) resolve('cancelled');
      onAbort = () => resolve('cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
    });
    let answer: unknown;
    try {
      const finished = added.waitUntilFinished(this.events).catch((err: unknown) => {
        if (/^Missing key for job/.test((err as Error).message)) return early.done;
        throw err;
      });
      const r = await Promise.race([finished, cancelled]).finally(() => early.stop());
      if (r === 'cancelled') {
        await added.remove().catch(() => {}); // waiting: gone; running: its worker finishes it unheard
        return fail('the batch was cancelled');
      }
      answer = r;
      signal.removeEventListener('abort', onAbort); // one listener per case would pile up on the batch's signal
    } catch (err) {
      signal.removeEventListener('abort', onAbort);
      const msg = (err as Error).message;
      if (/stalled/i.test(msg)) return fail('its worker stopped while running it, twice (it was retried once on another start)', 2);
      return fail(`the worker failed: ${msg}`);
    }
    const checked = checkCaseOutput(answer, job);
    if (!checked.ok) return fail(checked.problem);
    const out = checked.out;
    // The case's run and its thread, here, so that the batch's case opens like any run. The run
    // file is new: an answer naming a run that is here already is refused, never written over.
    if (out.run) {
      const file = runFile(this.o.home, job.thread.id, out.run.runId);
      await mkdir(path.dirname(file), { recursive: true });
      if (!(await writeNewFile(file, JSON.stringify(out.run))) && !(await holdsRun(file, out.run))) {
        return fail(`the worker's run id ${JSON.stringify(out.run.runId)} names a run this home has already: not written over`);
      }
    }
    if (out.thread) {
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(path.join(dir, job.file), `${JSON.stringify(out.thread, null, 2)}\n`);
    }
    out.result.threadFile = job.file;
    return out;
  }

  async close(): Promise<void> {
    clearTimeout(this.noWorkerTimer);
    // A connection that never signed in has nothing to close gracefully (close() would wait for it).
    const closing = this.wasRefused ? [this.events.disconnect(), this.queue.disconnect()] : [this.events.close(), this.queue.close()];
    await Promise.race([Promise.allSettled(closing), new Promise((r) => setTimeout(r, 5000).unref())]);
  }
}
