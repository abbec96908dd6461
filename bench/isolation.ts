/**
 * Benchmark 5, isolation cost: time from starting a run to its first envelope, with a fresh
 * runner process (the BUILT out/main/agent-runner.js through the real RunSupervisor and
 * NodeSpawner, as the app runs it) against the same run in-process (`startRun`). The run is a
 * scripted step of a one-message thread. Each side runs BENCH_ISOLATION_RUNS times (default
 * 12) after one warm-up; p50 and p90 are reported.
 * CPU figures too (the wall clock counts time spent waiting for a core on a shared machine):
 * the runner process's CPU time until its first envelope arrives (every thread of it, from
 * /proc/<pid>/task/<tid>/schedstat; Linux only) against the CPU the host process spends from
 * `startRun` to the first envelope in-process. Target: a process adds < 150 ms (p50), by CPU.
 * Reference: the CPU of a bare Node child (bench/bare-child.mjs, forked the same way) until its
 * one message arrives, what any process costs here before the runner's own code runs.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fork } from 'node:child_process';
import { NodeSpawner } from '../main/core/process/node-spawner';
import { RunSupervisor } from '../main/core/supervisor/run-supervisor';
import { startRun } from '../agent-runner/run';
import type { RunSpec } from '../shared/protocol/runner';
import { scriptedThread } from '../tests/support/threads';
import { cpuMs, envNum, percentile, type Figure } from './lib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function spec(home: string): RunSpec {
  const thread = scriptedThread([{ text: 'Hello from the scripted model.' }], { tokensPerSecond: 100000 });
  return { runId: crypto.randomUUID(), threadId: thread.id, thread, mode: 'step', providers: [], home, workspaceDir: home };
}

/** CPU time (ms) process `pid` has used so far, all its threads; undefined where /proc cannot tell. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

/** One run's first envelope: ms from the start, and the CPU (ms) spent on it (NaN when unknown). */
interface First {
  ms: number;
  cpu: number;
}

/** ms from `supervisor.start` to the first message on the run channel, and the runner's CPU until then; waits for the exit. */
async function processRun(entry: string, home: string): Promise<First> {
  let t0 = 0;
  let first = -1;
  let cpu = NaN;
  const child: { pid?: number } = {};
  let gotFirst!: () => void;
  const firstSeen = new Promise<void>((r) => (gotFirst = r));
  const supervisor = new RunSupervisor({
    spawner: new NodeSpawner({ stdout: 'pipe' }),
    entry,
    listener: {
      message: () => {
        if (first < 0) {
          first = performance.now() - t0;
          cpu = processCpuMs(child.pid) ?? NaN;
          gotFirst();
        }
      },
      exit: () => {},
    },
  });
  t0 = performance.now();
  const run = supervisor.start(spec(home));
  child.pid = run.pid;
  const exit = await Promise.race([run.exited, firstSeen.then(() => run.exited)]);
  if (first < 0) throw new Error(`the runner exited (code ${exit.code}) before posting anything: ${exit.stderrTail}`);
  return { ms: first, cpu };
}

/** CPU (ms) of a bare Node child, forked as NodeSpawner forks, until its one message arrives. */
function bareChildCpu(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(ROOT, 'bench/bare-child.mjs'), [], { serialization: 'advanced', execArgv: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    child.once('message', () => resolve(processCpuMs(child.pid) ?? NaN));
    child.once('error', reject);
  });
}

/** ms from `startRun` to its first posted message, and this process's CPU until then; waits for `done`. */
async function inProcessRun(home: string): Promise<First> {
  let first = -1;
  let cpu = NaN;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const h = startRun(spec(home), () => {
    if (first >= 0) return;
    first = performance.now() - t0;
    cpu = cpuMs(c0);
  });
  await h.done;
  return { ms: first, cpu };
}

export async function isolationBench(report: (f: Figure) => void): Promise<void> {
  const entry = process.env.STEPWISE_RUNNER_ENTRY ? path.resolve(process.env.STEPWISE_RUNNER_ENTRY) : path.join(ROOT, 'out/main/agent-runner.js');
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: run \`yarn build\` (yarn bench does it) or set STEPWISE_RUNNER_ENTRY`);
  const runs = Math.max(10, Math.round(envNum('BENCH_ISOLATION_RUNS', 12)));
  const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-iso-'));
  try {
    await processRun(entry, home);
    await inProcessRun(home);
    const procRuns: First[] = [];
    const inprocRuns: First[] = [];
    for (let i = 0; i < runs; i++) {
      procRuns.push(await processRun(entry, home));
      inprocRuns.push(await inProcessRun(home));
    }
    const proc = procRuns.map((r) => r.ms);
    const inproc = inprocRuns.map((r) => r.ms);
    const p50 = percentile(proc, 50);
    const b50 = percentile(inproc, 50);
    report({ bench: 'isolation', name: `first envelope, fresh runner process (p50 of ${runs})`, value: p50, unit: 'ms', baseline: { label: 'in-process startRun', value: b50 } });
    report({ bench: 'isolation', name: `first envelope, fresh runner process (p90 of ${runs})`, value: percentile(proc, 90), unit: 'ms', baseline: { label: 'in-process startRun', value: percentile(inproc, 90) } });
    report({ bench: 'isolation', name: 'extra time for a process per run (p50)', value: p50 - b50, unit: 'ms', note: 'wall clock: on a shared machine it counts waiting for a core; the target is on CPU (below)' });
    const cpu = procRuns.map((r) => r.cpu);
    if (cpu.some((c) => Number.isNaN(c))) return; // no /proc here: the CPU figures cannot be read
    const c50 = percentile(cpu, 50);
    const bc50 = percentile(inprocRuns.map((r) => r.cpu), 50);
    const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    report({ bench: 'isolation', name: `first envelope, fresh runner process: its CPU (p50 of ${runs})`, value: c50, unit: 'ms', baseline: { label: 'in-process startRun, CPU', value: bc50 }, note: `each: ${list(cpu)} ms; Node's own start-up is part of it` });
    report({ bench: 'isolation', name: 'extra CPU for a process per run (p50)', value: c50 - bc50, unit: 'ms', target: { text: '< 150 ms extra, by CPU', met: c50 - bc50 < 150 } });
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) bare.push(await bareChildCpu());
    report({ bench: 'isolation', name: `a bare Node child until its first message: its CPU (p50 of ${runs})`, value: percentile(bare, 50), unit: 'ms', note: `reference: what starting any Node process costs on this machine now; the runner's own code adds ${(c50 - percentile(bare, 50)).toFixed(0)} ms (p50 against p50)` });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
