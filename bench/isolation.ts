/**
 * Benchmark 5, isolation cost: time from starting a run to its first envelope, with a fresh
 * runner process (the BUILT out/main/agent-runner.js through the real RunSupervisor and
 * NodeSpawner, as the app runs it) against the same run in-process (`startRun`). The run is a
 * scripted step of a one-message thread. Each side runs BENCH_ISOLATION_RUNS times (default
 * 12) after one warm-up; p50 and p90 are reported.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeSpawner } from '../main/core/process/node-spawner';
import { RunSupervisor } from '../main/core/supervisor/run-supervisor';
import { startRun } from '../agent-runner/run';
import type { RunSpec } from '../shared/protocol/runner';
import { scriptedThread } from '../tests/support/threads';
import { envNum, percentile, type Figure } from './lib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function spec(home: string): RunSpec {
  const thread = scriptedThread([{ text: 'Hello from the scripted model.' }], { tokensPerSecond: 100000 });
  return { runId: crypto.randomUUID(), threadId: thread.id, thread, mode: 'step', providers: [], home, workspaceDir: home };
}

/** ms from `supervisor.start` to the first message on the run channel; waits for the exit. */
async function processRun(entry: string, home: string): Promise<number> {
  let t0 = 0;
  let first = -1;
  let gotFirst!: () => void;
  const firstSeen = new Promise<void>((r) => (gotFirst = r));
  const supervisor = new RunSupervisor({
    spawner: new NodeSpawner({ stdout: 'pipe' }),
    entry,
    listener: {
      message: () => {
        if (first < 0) {
          first = performance.now() - t0;
          gotFirst();
        }
      },
      exit: () => {},
    },
  });
  t0 = performance.now();
  const run = supervisor.start(spec(home));
  const exit = await Promise.race([run.exited, firstSeen.then(() => run.exited)]);
  if (first < 0) throw new Error(`the runner exited (code ${exit.code}) before posting anything: ${exit.stderrTail}`);
  return first;
}

/** ms from `startRun` to its first posted message; waits for `done`. */
async function inProcessRun(home: string): Promise<number> {
  let first = -1;
  const t0 = performance.now();
  const h = startRun(spec(home), () => {
    if (first < 0) first = performance.now() - t0;
  });
  await h.done;
  return first;
}

export async function isolationBench(report: (f: Figure) => void): Promise<void> {
  const entry = process.env.STEPWISE_RUNNER_ENTRY ? path.resolve(process.env.STEPWISE_RUNNER_ENTRY) : path.join(ROOT, 'out/main/agent-runner.js');
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: run \`yarn build\` (yarn bench does it) or set STEPWISE_RUNNER_ENTRY`);
  const runs = Math.max(10, Math.round(envNum('BENCH_ISOLATION_RUNS', 12)));
  const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-iso-'));
  try {
    await processRun(entry, home);
    await inProcessRun(home);
    const proc: number[] = [];
    const inproc: number[] = [];
    for (let i = 0; i < runs; i++) {
      proc.push(await processRun(entry, home));
      inproc.push(await inProcessRun(home));
    }
    const p50 = percentile(proc, 50);
    const b50 = percentile(inproc, 50);
    report({ bench: 'isolation', name: `first envelope, fresh runner process (p50 of ${runs})`, value: p50, unit: 'ms', baseline: { label: 'in-process startRun', value: b50 } });
    report({ bench: 'isolation', name: `first envelope, fresh runner process (p90 of ${runs})`, value: percentile(proc, 90), unit: 'ms', baseline: { label: 'in-process startRun', value: percentile(inproc, 90) } });
    report({ bench: 'isolation', name: 'extra time for a process per run (p50)', value: p50 - b50, unit: 'ms', target: { text: '< 150 ms extra', met: p50 - b50 < 150 } });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
