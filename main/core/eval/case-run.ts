/**
 * Runs one case of a batch on a host core (the batch's own, or a worker's): writes the case's
 * thread file into the batch folder, runs it in ReAct mode in its own runner process (as every
 * run), reads its run record, checks the assertions and runs any judge, then lets the thread
 * go. A runner that dies ends the case `error`; nothing here throws for a case that failed.
 */
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { Thread } from '../../../shared/thread/schema';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { HostPush } from '../../../shared/protocol/host-api';
import type { Assertion } from '../../../shared/eval/dataset';
import { checkAssertion, type AssertionResult } from '../../../shared/eval/assertions';
import { outcomeOf, type CaseOutcome } from '../../../shared/eval/outcome';
import { caseStatus, type CaseResult } from '../../../shared/eval/results';
import type { ThreadStore } from '../store/thread-store';
import type { RunController } from '../runs';
import { unexpectedStop, type RunSupervisor } from '../supervisor/run-supervisor';
import { readRun } from '../journal/run-files';
import { judgeResult, judgeThread } from './judge';
import { safeStem } from '../workspace/names';

/**
 * What running a case needs of a host core (main/core/host-core.ts's HostCore has all of it;
 * named here so that the core can hold an evaluation service without an import cycle).
 */
export interface CaseHost {
  readonly home: string;
  readonly threads: Pick<ThreadStore, 'open' | 'openInMemory' | 'get' | 'has' | 'release' | 'idOfFile'>;
  readonly runs: Pick<RunController, 'start'>;
  readonly supervisor: Pick<RunSupervisor, 'cancel' | 'get' | 'releasePool'>;
  connect(send: (push: HostPush) => void): { stream: { subscribe(threadId?: string): unknown }; close(): void };
}

/** One case × variant, ready to run anywhere (it crosses to a Redis worker as JSON). */
export interface CaseJob {
  batchId: string;
  caseId: string;
  variant: string;
  /** The case's thread (case-thread.ts). */
  thread: Thread;
  /** The dataset's assertions, then the case's. */
  assertions: Assertion[];
  expected?: string;
  vars: Record<string, string>;
  maxTurns: number;
  attempt: number;
  /** The case thread's file name in the batch folder (unique in the batch; see caseFileName). */
  file: string;
}

/** What running a job gives: its result, and what a remote worker sends back to the batch. */
export interface CaseRunOutput {
  result: CaseResult;
  /** The case thread after its run, and the run's record (absent when it never started). */
  thread?: Thread;
  run?: RunRecord;
  /**
   * The thread and run are in memory only (nothing of the case was written): the batch writes
   * them into its case store (case-store.ts) with the result.
   */
  unsaved?: boolean;
}

/** A file name for a case's thread in the batch folder. */
export function caseFileName(caseId: string, variant: string, suffix = ''): string {
  return `${safeStem(`${caseId}${variant === 'base' ? '' : ` -- ${variant}`}`)}${suffix}.json`;
}

/**
 * How a batch's cases get their runner processes: `fresh`, a new process per case (it exits
 * after the case); `reuse`, processes of the batch's pool reused from case to case — a case
 * whose process crashes is run once more in a fresh process.
 */
export type CaseIsolation = 'fresh' | 'reuse';

/** The default: reused processes (bench/eval.ts measures both; README says which is default and why). */
export const DEFAULT_ISOLATION: CaseIsolation = 'reuse';

/** `--isolation`'s value, checked; throws naming the flag and the value. */
export function parseIsolation(v: string | undefined, flag = '--isolation'): CaseIsolation {
  if (v === undefined) return DEFAULT_ISOLATION;
  if (v === 'fresh' || v === 'reuse') return v;
  throw new Error(`${flag} must be reuse or fresh, not ${JSON.stringify(v)}`);
}

/** The runner-process pool of a batch's cases under `reuse`. */
export function batchPool(batchId: string): string {
  return `batch:${batchId}`;
}

/** A run's record and thread, or why it could not run; `crashed`: how its runner process died. */
type Ran = { run: RunRecord; thread: Thread; crashed?: string } | { error: string; thread?: Thread };

/**
 * Where a case's thread and run are kept: `files`, the thread file at its path and the run file
 * in the home, as any run; `memory`, neither (the batch's case store gets them).
 */
export type Keep = 'files' | 'memory';

/**
 * Runs `thread` on `core`; in a pooled process when `pool` is given, and then once more in a
 * fresh process if that one crashed (a case run then counts two attempts).
 */
async function runIsolated(core: CaseHost, file: string, thread: Thread, mode: 'react' | 'step', maxTurns: number, signal: AbortSignal | undefined, pool: string | undefined, keep: Keep): Promise<Ran & { retried: boolean }> {
  const first = await runOnce(core, file, thread, mode, maxTurns, signal, pool, keep);
  if (pool === undefined || !('run' in first) || !first.crashed || signal?.aborted) return { ...first, retried: false };
  return { ...(await runOnce(core, file, thread, mode, maxTurns, signal, undefined, keep)), retried: true };
}

/** Runs `thread` once on `core` (opening it from `file`) and resolves with its run record, or the reason it could not run. */
async function runOnce(core: CaseHost, file: string, thread: Thread, mode: 'react' | 'step', maxTurns: number, signal: AbortSignal | undefined, pool: string | undefined, keep: Keep): Promise<Ran> {
  if (signal?.aborted) return { error: 'the batch was cancelled' };
  if (keep === 'files') {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(thread, null, 2)}\n`);
  }
  let record: RunRecord | undefined;
  const ended = new Map<string, () => void>();
  const endedIds = new Set<string>();
  const conn = core.connect((push: HostPush) => {
    if (push.type !== 'run_ended') return;
    endedIds.add(push.runId);
    ended.get(push.runId)?.();
  });
  let threadId: string | undefined;
  try {
    threadId = (keep === 'memory' ? core.threads.openInMemory(file, thread) : await core.threads.open(file)).thread.id;
    conn.stream.subscribe(threadId); // run_ended goes to the thread's subscribers
    const { runId } = await core.runs.start({ threadId, mode, maxTurns, ...(pool === undefined ? {} : { pool }), ...(keep === 'memory' ? { onRecord: (r: RunRecord) => (record = r) } : {}) });
    const exited = core.supervisor.get(runId)?.exited;
    const cancel = () => core.supervisor.cancel(runId, 'the batch was cancelled');
    signal?.addEventListener('abort', cancel, { once: true });
    // A cancel that came while the run was starting fired no listener: act on it now.
    if (signal?.aborted) cancel();
    await new Promise<void>((resolve) => {
      if (endedIds.has(runId)) resolve();
      else ended.set(runId, resolve);
    });
    signal?.removeEventListener('abort', cancel);
    const exit = await exited;
    const run = record ?? (await readRun(core.home, threadId, runId));
    const crashed = exit?.abnormal && !exit.cancelRequested ? unexpectedStop(exit) : undefined;
    return { run, thread: core.threads.get(threadId).thread, ...(crashed ? { crashed } : {}) };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    conn.close();
    if (threadId) await core.threads.release(threadId).catch(() => {});
  }
}

/**
 * Runs one case on `core`, its files under `dir` (the batch folder); `worker` names who ran it.
 * `keep`: `files` writes the case thread and its run record as any run's; `memory` writes neither
 * (the output says `unsaved`: the batch's case store keeps them). Judges' threads and runs are files.
 * Resolves with the case's result in every case (a failure to run is a result with status `error`).
 */
export async function runCase(core: CaseHost, job: CaseJob, dir: string, worker = 'local', signal?: AbortSignal, isolation: CaseIsolation = 'fresh', keep: Keep = 'files'): Promise<CaseRunOutput> {
  const pool = isolation === 'reuse' ? batchPool(job.batchId) : undefined;
  const startedAt = Date.now();
  const threadFile = job.file;
  const base: Pick<CaseResult, 'caseId' | 'variant' | 'startedAt' | 'attempts' | 'worker' | 'threadFile' | 'threadId'> = {
    caseId: job.caseId,
    variant: job.variant,
    startedAt,
    attempts: job.attempt,
    worker,
    threadFile,
    threadId: job.thread.id,
  };
  const ran = await runIsolated(core, path.join(dir, threadFile), job.thread, 'react', job.maxTurns, signal, pool, keep);
  if (ran.retried) base.attempts = job.attempt + 1;
  if ('error' in ran) {
    return { result: { ...base, status: 'error', error: ran.error, assertions: [], endedAt: Date.now() } };
  }
  const outcome = outcomeOf(ran.run.nodes);
  const assertions: AssertionResult[] = [];
  for (const [i, a] of job.assertions.entries()) {
    if (a.type !== 'judge') {
      assertions.push(checkAssertion(a, outcome, job.expected));
      continue;
    }
    const jt = judgeThread(a, job.thread.model, outcome, job.vars, job.expected, `Judge · ${job.caseId} · ${job.variant} · ${i + 1}`);
    const judged = await runIsolated(core, path.join(dir, 'judges', job.file.replace(/\.json$/, `.judge-${i + 1}.json`)), jt, 'step', 1, signal, pool, 'files');
    assertions.push(judgeResult(a, 'error' in judged ? judged : judgedText(judged.run)));
  }
  const result: CaseResult = {
    ...base,
    status: caseStatus(ran.run.status, assertions),
    runStatus: ran.run.status,
    runId: ran.run.runId,
    outcome,
    assertions,
    endedAt: Date.now(),
  };
  const error = runError(outcome, ran.run.status, ran.crashed);
  if (error) result.error = error;
  return { result, thread: ran.thread, run: ran.run, ...(keep === 'memory' ? { unsaved: true } : {}) };
}

function judgedText(run: RunRecord): { text: string } | { error: string } {
  const o = outcomeOf(run.nodes);
  if (o.status !== 'completed') return { error: o.error ?? `its run ended ${o.status}` };
  return { text: o.finalText };
}

function runError(o: CaseOutcome, status: RunRecord['status'], crashed: string | undefined): string | undefined {
  if (status === 'completed' || status === 'awaiting_input') return undefined;
  return o.error ?? crashed ?? `the run ended ${status}`;
}
