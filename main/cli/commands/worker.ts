/**
 * `stepwise worker --queue redis://HOST:PORT [--concurrency N] [--name NAME] [--home DIR]
 * [--allow-tools LIST]`: runs cases that `stepwise eval --queue` sends, on this machine, each
 * case's run in a runner process of its own (reused across a batch's cases, or fresh:
 * `--isolation`, as a local batch does), until Ctrl-C. A job that is not a well-formed case, or
 * asks for more than the worker allows (job-policy.ts: by default no commands, file changes,
 * network, MCP or agent tools, no `settings.cwd`/`settings.allowTools`), fails with the reason;
 * the batch shows it on that case.
 */
import os from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Worker } from 'bullmq';
import { startCliCore } from '../cli-core';
import { parseIsolation, runCase, type CaseIsolation } from '../../core/eval/case-run';
import { checkCaseJob } from '../../core/eval/case-job-check';
import { QUEUE_NAME, connectionOf, isAuthRefusal, parseQueueUrl, shownQueue } from '../../core/eval/redis-scheduler';
import { safeStem } from '../../core/workspace/names';
import { answeredThread, applyJobPolicy, parseAllowTools, powerfulBuiltins, OTHER_GRANTS, type AgentThreadLoader, type JobPolicy } from '../../core/eval/job-policy';
import { resolveInside } from '../../../shared/workspace/paths.node.js';
import { parseThreadText } from '../../../shared/thread/thread-text';
import { fsErrorPhrase, isFsError } from '../../../shared/fs-errors';

interface WorkerOptions {
  queue?: string;
  concurrency: string;
  name?: string;
  home?: string;
  lockMs?: string;
  isolation?: string;
  allowTools?: string;
}

/** Reads an agent tool's thread from `workspaceDir` as the runner does (confined to it); errors carry no absolute path. */
function agentThreadLoader(workspaceDir: string): AgentThreadLoader {
  return async (threadPath) => {
    let text: string;
    try {
      text = await readFile(await resolveInside(path.resolve(workspaceDir), threadPath), 'utf8');
    } catch (err) {
      throw isFsError(err) ? new Error(fsErrorPhrase(err)) : err;
    }
    return parseThreadText(threadPath, text).thread;
  };
}

/**
 * How long a worker keeps an idle pooled runner process (ms). A worker lives long and serves
 * batches that come and go: a batch's cases follow each other within this, and runner
 * processes of a finished batch do not stay for the core's 30 s default.
 */
export const WORKER_POOL_IDLE_MS = 5_000;

/** Runs the worker until a signal; resolves with the exit code. */
export async function workerCommand(o: WorkerOptions): Promise<number> {
  let url: URL;
  const concurrency = Number(o.concurrency);
  const lockMs = o.lockMs === undefined ? 30_000 : Number(o.lockMs);
  let isolation: CaseIsolation;
  let policy: JobPolicy;
  try {
    isolation = parseIsolation(o.isolation);
    policy = parseAllowTools(o.allowTools);
    if (!o.queue) throw new Error('--queue redis://HOST:PORT is required');
    url = parseQueueUrl(o.queue);
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency must be a positive whole number, not ${JSON.stringify(o.concurrency)}`);
    if (!Number.isInteger(lockMs) || lockMs < 500) throw new Error(`--lock-ms must be a whole number of at least 500, not ${JSON.stringify(o.lockMs)}`);
  } catch (err) {
    process.stderr.write(`stepwise worker: ${(err as Error).message}\n`);
    return 2;
  }
  const name = o.name ?? `${os.hostname()}:${process.pid}`;
  const cli = await startCliCore(o.home, 'stepwise worker', { runnerPoolIdleMs: WORKER_POOL_IDLE_MS });
  const worker = new Worker(
    QUEUE_NAME,
    async (j) => {
      const checked = checkCaseJob((j.data as { job?: unknown } | undefined)?.job);
      if (!checked.ok) throw new Error(checked.problem);
      const what = `case ${checked.job.caseId} [${checked.job.variant}] of batch ${checked.job.batchId}`;
      const allowed = await applyJobPolicy(checked.job, policy, cli.core.home, agentThreadLoader(cli.core.workspaceDir));
      if (!allowed.ok) {
        process.stdout.write(`${what}: ${allowed.problem}\n`);
        throw new Error(allowed.problem);
      }
      const job = { ...allowed.job, attempt: Math.max(1, j.attemptsStarted ?? 1) };
      const dir = path.join(cli.core.workspaceDir, 'evals', 'remote', safeStem(job.batchId));
      process.stdout.write(`${what}: started${job.attempt > 1 ? ` (attempt ${job.attempt})` : ''}\n`);
      // The case's thread and run go back to the batch, which keeps them: nothing of it is written here.
      const out = await runCase(cli.core, job, dir, name, undefined, isolation, 'memory');
      delete out.unsaved;
      process.stdout.write(`${what}: ${out.result.status}\n`);
      return out.thread ? { ...out, thread: answeredThread(out.thread, checked.job.thread) } : out;
    },
    { connection: connectionOf(url), concurrency, lockDuration: lockMs, stalledInterval: Math.max(250, Math.floor(lockMs / 2)), maxStalledCount: 1 },
  );
  // Each connection error once, as its first line (never the command it carried: an AUTH
  // command shows the password); refused credentials end the worker (retrying cannot help).
  let refused: string | undefined;
  let stop = () => {};
  const said = new Set<string>();
  worker.on('error', (err) => {
    const message = String(err?.message ?? err).split('\n')[0];
    if (isAuthRefusal(message) && !refused) {
      refused = message;
      stop();
    }
    if (said.has(message)) return;
    said.add(message);
    process.stderr.write(`stepwise worker: Redis at ${shownQueue(url)}: ${message}\n`);
  });
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(s, () => resolve());
  });
  await Promise.race([worker.waitUntilReady(), stopped]);
  if (!refused) {
    process.stdout.write(`stepwise worker ${name}: running cases from ${shownQueue(url)} (${concurrency} at a time). Ctrl-C stops.\n`);
    await stopped;
  }
  if (!refused) process.stderr.write('stepwise worker: stopping after the cases under way\n');
  await worker.close(Boolean(refused));
  await cli.close();
  return refused ? 2 : 0;
}

/** Registers `stepwise worker`. */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('Run evaluation cases sent through Redis by `stepwise eval --queue`, each in its own runner process. Give a worker a home of its own (--home): a job\'s templates can include files of the worker\'s workspace.')
    .option('--queue <url>', 'the Redis to take cases from (redis://HOST:PORT)')
    .option('--concurrency <n>', 'cases at a time', '2')
    .option('--name <name>', 'this worker\'s name in results (default host:pid)')
    .option('--home <dir>', 'Stepwise home (default $STEPWISE_HOME or ~/.stepwise)')
    .option('--isolation <mode>', 'runner processes: reuse (default; reused across a batch\'s cases, a crashed case runs again in a fresh one) or fresh (a new process per case)')
    .option('--lock-ms <ms>', 'how long a case may go unconfirmed before another worker takes it (ms)')
    .option(
      '--allow-tools <list>',
      `let jobs use these tools (comma-separated: ${[...powerfulBuiltins(), ...OTHER_GRANTS].join(', ')}, or all). Anyone who can write to the Redis can add a job, so by default a job that uses them, or sets settings.cwd or settings.allowTools, is refused; only read-only tools (read, ls, glob, grep) run, in a folder of the case's own under the worker's home. Give this only on a Redis no one else can write to, e.g. to evaluate coding agents; a job's settings.cwd is still ignored (each case gets its own folder under the worker's home), and bash can reach whatever this user can`,
    )
    .action(async (opts: WorkerOptions) => {
      process.exitCode = await workerCommand(opts);
    });
}
