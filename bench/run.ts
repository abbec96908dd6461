/**
 * `yarn bench [name…]`: runs the benchmarks (all, or the named ones), prints one line per
 * figure with its baseline measured in the same run and `ok` / `MISSED` for each target, and
 * writes the results to bench/results/<timestamp>.json and bench/results/latest.json.
 * Re-executes itself with --expose-gc when needed (the undo benchmark measures retained heap).
 * Sizes come from BENCH_* environment variables (see each benchmark's doc comment).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatFigure, type Figure } from './lib';

type Bench = (report: (f: Figure) => void) => Promise<void>;

const BENCHES: Record<string, () => Promise<Bench>> = {
  streaming: async () => (await import('./streaming')).streamingBench,
  renderer: async () => (await import('./renderer')).rendererBench,
  messages: async () => (await import('./messages')).messagesBench,
  toolargs: async () => (await import('./tool-args')).toolArgsBench,
  argparse: async () => (await import('./tool-args-parse')).toolArgsParseBench,
  undo: async () => (await import('./undo')).undoBench,
  isolation: async () => (await import('./isolation')).isolationBench,
  edits: async () => (await import('./edit-ack')).editAckBench,
  'multi-window': async () => (await import('./multi-window')).multiWindowBench,
  react: async () => (await import('./react')).reactBench,
  eval: async () => (await import('./eval')).evalBench,
};

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<number> {
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
    const r = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
    return r.status ?? 1;
  }
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => !(a in BENCHES));
  if (unknown.length) {
    console.error(`Unknown benchmark ${unknown.join(', ')}. Known: ${Object.keys(BENCHES).join(', ')}.`);
    return 2;
  }
  const names = args.length ? args : Object.keys(BENCHES);
  const figures: Figure[] = [];
  const failures: { bench: string; error: string }[] = [];
  const started = Date.now();
  console.log(`stepwise bench: ${names.join(', ')} — ${os.cpus().length} cores, node ${process.version}`);
  for (const name of names) {
    const t0 = Date.now();
    try {
      const bench = await BENCHES[name]();
      await bench((f) => {
        figures.push(f);
        console.log(formatFigure(f));
      });
    } catch (err) {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      failures.push({ bench: name, error });
      console.log(`${name.padEnd(10)} FAILED: ${error}`);
    }
    console.log(`${name.padEnd(10)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const missed = figures.filter((f) => f.target && !f.target.met);
  const met = figures.filter((f) => f.target?.met);
  console.log(`\n${met.length} target(s) ok, ${missed.length} MISSED${failures.length ? `, ${failures.length} benchmark(s) failed` : ''} — ${((Date.now() - started) / 1000).toFixed(0)} s`);
  for (const f of missed) console.log(`  MISSED ${f.bench}: ${f.name} = ${f.value} ${f.unit} (${f.target!.text})`);

  const dir = path.join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const result = {
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memory: os.totalmem(), platform: process.platform, node: process.version },
    benches: names,
    figures,
    failures,
  };
  const json = JSON.stringify(result, null, 2);
  writeFileSync(path.join(dir, `${result.startedAt.replace(/[:.]/g, '-')}.json`), json);
  writeFileSync(path.join(dir, 'latest.json'), json);
  return failures.length ? 1 : 0;
}

process.exitCode = await main();
