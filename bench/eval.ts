/**
 * Benchmark: evaluation throughput and memory (docs/architecture.md#evaluation). The workload of
 * issue 36: a thread with one user message `Case {{i}}: what is 2 + 2?` on the scripted model at
 * 1e9 tokens/s, N cases `{i}`, one `contains "4"` assertion, `stepwise eval … --concurrency 4`
 * (the built CLI, out/main/cli.js, as a user runs it), measured with its whole process tree
 * (bench/process-tree.ts): cases/s by wall clock, CPU per case, peak memory.
 * - `reuse` (the default isolation) at BENCH_EVAL_SIZES cases (default 500, 5,000, 50,000), and
 *   `fresh` at the first size (what a fresh runner process per case costs);
 * - side by side, when STEPWISE_BENCH_PROMPTFOO names a folder with promptfoo installed
 *   (`npm install promptfoo@0.121.20` there; outside the repository), promptfoo on the same cases:
 *   `promptfoo eval --no-cache -j 4` with a custom provider answering the same fixed text;
 *   skipped with a note otherwise;
 * - the Redis queue (when redis-server is installed): BENCH_EVAL_CASES cases (default 500)
 *   through BullMQ to one `stepwise worker` running 4 at a time, against the local pool.
 * Targets: at 5,000 cases Stepwise's wall time at most 1/1.5 of promptfoo's (and less memory);
 * at the largest size no more CPU per case than at 5,000 (×1.15 for noise) and peak memory
 * within 1.5× of 5,000's; the queue within 2× of the local pool's time.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHostCore } from '../main/core/host-core';
import { NodeSpawner } from '../main/core/process/node-spawner';
import { runBatch } from '../main/core/eval/batch';
import { writeBatchSpec, type BatchSpec } from '../main/core/eval/batch-files';
import { LocalScheduler } from '../main/core/eval/scheduler';
import { DEFAULT_ISOLATION, type CaseIsolation } from '../main/core/eval/case-run';
import { RedisScheduler } from '../main/core/eval/redis-scheduler';
import { scriptedThread } from '../tests/support/threads';
import { startRedis } from '../tests/support/redis-server';
import { envList, envNum, type Figure } from './lib';
import { runMeasured, type TreeRun } from './process-tree';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONCURRENCY = 4;
const PROMPT = 'Case {{i}}: what is 2 + 2?';
const ANSWER = 'The answer is 4.';

/** The workload's files for `n` cases in `dir`: Stepwise's thread, dataset and assertion, promptfoo's config, tests and provider. */
function workload(dir: string, n: number): void {
  const thread = scriptedThread([{ text: ANSWER }], { tokensPerSecond: 1e9, title: 'Bench' });
  thread.context.messages = [{ id: 'u1', role: 'user', content: [{ type: 'text', text: PROMPT }] }];
  writeFileSync(path.join(dir, 'thread.json'), JSON.stringify(thread));
  writeFileSync(path.join(dir, 'cases.jsonl'), Array.from({ length: n }, (_, i) => `{"id":"c${i}","i":"${i}"}\n`).join(''));
  writeFileSync(path.join(dir, 'contains4.json'), '[{"type":"contains","value":"4"}]');
  writeFileSync(path.join(dir, 'provider.cjs'), `module.exports = class { id() { return 'fixed'; } async callApi() { return { output: ${JSON.stringify(ANSWER)} }; } };\n`);
  writeFileSync(path.join(dir, 'promptfooconfig.yaml'), `description: bench\nprompts:\n  - ${JSON.stringify(PROMPT)}\nproviders:\n  - file://provider.cjs\ntests: file://tests.yaml\n`);
  writeFileSync(path.join(dir, 'tests.yaml'), Array.from({ length: n }, (_, i) => `- vars:\n    i: "${i}"\n  assert:\n    - type: contains\n      value: "4"\n`).join(''));
}

/** `stepwise eval` on the workload; throws unless every case passed. */
async function stepwise(dir: string, n: number, isolation: CaseIsolation): Promise<TreeRun> {
  const home = path.join(dir, `home-${isolation}`);
  const r = await runMeasured(process.execPath, [path.join(ROOT, 'out/main/cli.js'), 'eval', 'thread.json', '--dataset', 'cases.jsonl', '--assertions', 'contains4.json', '--concurrency', String(CONCURRENCY), '--isolation', isolation, '--home', home], { cwd: dir });
  if (r.code !== 0 || !r.stdout.includes(`${n}/${n} passed`)) throw new Error(`stepwise eval (${n} cases, ${isolation}) exited ${r.code}: ${r.stderr.slice(-500) || r.stdout.slice(-500)}`);
  rmSync(home, { recursive: true, force: true });
  return r;
}

/** promptfoo from the folder STEPWISE_BENCH_PROMPTFOO names, or why it is not measured. */
function promptfooBin(): string | { skip: string } {
  const where = process.env.STEPWISE_BENCH_PROMPTFOO;
  if (!where) return { skip: 'not measured: set STEPWISE_BENCH_PROMPTFOO to a folder where `npm install promptfoo@0.121.20` ran (outside the repository)' };
  const bin = path.join(path.resolve(where), 'node_modules', 'promptfoo', 'dist', 'src', 'main.js');
  return existsSync(bin) ? bin : { skip: `not measured: no promptfoo under ${where} (node_modules/promptfoo/dist/src/main.js)` };
}

async function promptfoo(bin: string, dir: string, n: number): Promise<TreeRun> {
  const env = { PROMPTFOO_CONFIG_DIR: path.join(dir, 'promptfoo-home'), PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_DISABLE_SHARING: '1' };
  const r = await runMeasured(process.execPath, [bin, 'eval', '-c', 'promptfooconfig.yaml', '--no-cache', '-j', String(CONCURRENCY), '--no-progress-bar', '--no-table'], { cwd: dir, env });
  // promptfoo exits 100 when a test failed; its summary line is not always printed (its logger can time out at exit).
  if (r.code !== 0) throw new Error(`promptfoo (${n} cases) exited ${r.code}: ${(r.stdout + r.stderr).slice(-600)}`);
  return r;
}

const rateOf = (n: number, r: TreeRun) => n / (r.wallMs / 1000);

/** The figures of one run: cases/s (against promptfoo's when measured), CPU per case, peak memory. */
function report(out: (f: Figure) => void, label: string, n: number, r: TreeRun, pf?: TreeRun): void {
  const base = pf ? { baseline: { label: 'promptfoo 0.121.20, same cases', value: rateOf(n, pf) } } : {};
  const ratio = pf ? pf.wallMs / r.wallMs : undefined;
  const target = pf && n === 5000 ? { target: { text: '≥ 1.5× promptfoo\'s speed (wall)', met: (ratio ?? 0) >= 1.5 } } : {};
  out({ bench: 'eval', name: `${n} cases, ${label}: cases/s (wall)`, value: rateOf(n, r), unit: 'cases/s', ...base, ...(ratio ? { ratio, ratioLabel: '× promptfoo\'s speed' } : {}), ...target });
  out({ bench: 'eval', name: `${n} cases, ${label}: CPU per case (whole process tree)`, value: r.cpuMs / n, unit: 'ms', ...(pf ? { baseline: { label: 'promptfoo', value: pf.cpuMs / n }, ratio: pf.cpuMs / r.cpuMs, ratioLabel: '× less CPU' } : {}) });
  out({ bench: 'eval', name: `${n} cases, ${label}: peak memory (whole process tree)`, value: r.peakRssMb, unit: 'MB', ...(pf ? { baseline: { label: 'promptfoo', value: pf.peakRssMb }, ratio: pf.peakRssMb / r.peakRssMb, ratioLabel: '× less', target: { text: 'less than promptfoo\'s', met: r.peakRssMb < pf.peakRssMb } } : {}) });
}

function batchSpec(n: number, id: string): BatchSpec {
  const thread = scriptedThread([{ text: ANSWER }], { tokensPerSecond: 1e9, title: 'Bench' });
  return {
    id,
    name: 'bench',
    createdAt: Date.now(),
    threadFile: 'bench.json',
    thread,
    dataset: { version: 1, name: 'bench', assertions: [{ type: 'contains', value: '4' }], cases: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, vars: { i: String(i) } })) },
    variants: [{ name: 'base' }],
    concurrency: CONCURRENCY,
    maxTurns: 4,
    scheduler: 'local',
  };
}

export async function evalBench(out: (f: Figure) => void): Promise<void> {
  const entry = path.join(ROOT, 'out/main/agent-runner.js');
  const cli = path.join(ROOT, 'out/main/cli.js');
  if (!existsSync(entry) || !existsSync(cli)) throw new Error('out/main is not built: run `yarn build` (yarn bench does it)');
  const sizes = envList('BENCH_EVAL_SIZES', [500, 5000, 50000]);
  const pfBin = promptfooBin();
  if (typeof pfBin !== 'string') out({ bench: 'eval', name: 'promptfoo side by side', value: NaN, unit: 'cases/s', note: pfBin.skip });
  const perCase = new Map<number, TreeRun>();
  for (const n of sizes) {
    const dir = mkdtempSync(path.join(os.tmpdir(), `stepwise-bench-eval-${n}-`));
    try {
      workload(dir, n);
      // promptfoo first, then Stepwise: the same machine, the same minute.
      const pf = typeof pfBin === 'string' ? await promptfoo(pfBin, dir, n) : undefined;
      const r = await stepwise(dir, n, 'reuse');
      perCase.set(n, r);
      report(out, 'concurrency 4, reuse (the default)', n, r, pf);
      if (n === sizes[0]) {
        const fresh = await stepwise(dir, n, 'fresh');
        report(out, 'concurrency 4, fresh', n, fresh);
        out({ bench: 'eval', name: 'what a fresh runner process adds per case (CPU, whole tree)', value: (fresh.cpuMs - r.cpuMs) / n, unit: 'ms', note: `fresh ${(fresh.wallMs / 1000).toFixed(1)} s against reuse ${(r.wallMs / 1000).toFixed(1)} s wall` });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const mid = perCase.get(5000);
  const big = perCase.get(Math.max(...sizes));
  if (mid && big && big !== mid) {
    const n = Math.max(...sizes);
    const ratio = big.cpuMs / n / (mid.cpuMs / 5000);
    out({ bench: 'eval', name: `${n} cases against 5,000: CPU per case`, value: big.cpuMs / n, unit: 'ms', baseline: { label: '5,000 cases', value: mid.cpuMs / 5000 }, ratio, ratioLabel: '× 5,000\'s', target: { text: '≤ 1.15× (linear)', met: ratio <= 1.15 } });
    out({ bench: 'eval', name: `${n} cases against 5,000: peak memory`, value: big.peakRssMb, unit: 'MB', baseline: { label: '5,000 cases', value: mid.peakRssMb }, ratio: big.peakRssMb / mid.peakRssMb, ratioLabel: '× 5,000\'s', target: { text: '≤ 1.5× (bounded)', met: big.peakRssMb <= 1.5 * mid.peakRssMb } });
  }

  const n = Math.max(20, Math.round(envNum('BENCH_EVAL_CASES', 500)));
  const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-eval-'));
  const core = await createHostCore({ home, runnerEntry: entry, spawner: new NodeSpawner({ stdout: 'pipe' }), watchThreadFiles: false, log: () => {} });
  try {
    const lspec = batchSpec(n, 'local');
    const ldir = path.join(core.workspaceDir, 'evals', 'bench', lspec.id);
    await writeBatchSpec(ldir, lspec);
    const local = new LocalScheduler(core, DEFAULT_ISOLATION);
    const t0 = performance.now();
    const lout = await runBatch({ spec: lspec, dir: ldir, scheduler: local });
    const localMs = performance.now() - t0;
    await local.close();
    if (lout.results.some((r) => r.status !== 'passed')) throw new Error('local pool: a case did not pass');
    const rate = n / (localMs / 1000);
    let redis;
    try {
      redis = await startRedis();
    } catch (err) {
      out({ bench: 'eval', name: 'Redis queue', value: NaN, unit: 'cases/s', note: `not measured: ${(err as Error).message}` });
      return;
    }
    const wHome = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-worker-'));
    const worker = spawn(process.execPath, [cli, 'worker', '--queue', redis.url, '--concurrency', String(CONCURRENCY), '--home', wHome], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        worker.stdout!.on('data', (d) => String(d).includes('running cases from') && resolve());
        worker.on('exit', (c) => reject(new Error(`the worker exited (${c})`)));
      });
      const rspec = batchSpec(n, 'redis');
      const rdir = path.join(core.workspaceDir, 'evals', 'bench', rspec.id);
      await writeBatchSpec(rdir, rspec);
      const scheduler = new RedisScheduler({ url: new URL(redis.url), home });
      const t1 = performance.now();
      const rout = await runBatch({ spec: rspec, dir: rdir, scheduler });
      const queued = performance.now() - t1;
      await scheduler.close();
      const rbad = rout.results.filter((r) => r.status !== 'passed');
      if (rbad.length) throw new Error(`Redis queue: ${rbad.length} cases did not pass (${rbad[0].error})`);
      const ratio = queued / localMs;
      out({ bench: 'eval', name: `${n} cases through the Redis queue (one worker, 4 at a time)`, value: n / (queued / 1000), unit: 'cases/s', baseline: { label: `local pool (${DEFAULT_ISOLATION})`, value: rate }, ratio, ratioLabel: '× the local time', target: { text: '≤ 2× the local pool\'s time', met: ratio <= 2 } });
    } finally {
      worker.kill('SIGTERM');
      await redis.stop();
      rmSync(wHome, { recursive: true, force: true });
    }
  } finally {
    await core.close();
    rmSync(home, { recursive: true, force: true });
  }
}
