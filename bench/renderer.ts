/**
 * Benchmark 2, the renderer in Chromium (playwright-core, /usr/bin/chromium or
 * BENCH_CHROMIUM): builds bench/renderer-page (the real ExecutionTree and NodeRow over the
 * real StreamStore, react-dom/profiling aliased in so the Profiler reports commits) with vite
 * into a temp dir, serves it on 127.0.0.1, and streams BENCH_RENDER_NODES (default 20) nodes at
 * BENCH_RENDER_RATE deltas/s per node (default 60, the emitter's 16 ms cadence, with arrival
 * jitter) for BENCH_RENDER_SECONDS (default 4), each delta in its own task, after a 1 s
 * warm-up run that is discarded.
 * Baseline: the same store publishing atoms (setting React state) on every delta.
 * Targets: at most one commit per row per frame; no long task over 50 ms.
 *
 * Then the tree-scale figures (bench/renderer-tree.ts), on a production build of the page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import type { RenderBenchOptions, RenderBenchResult } from './renderer-page/types';
import { envNum, maxOf, type Figure } from './lib';
import { buildBenchPage, launchBenchChromium, openBenchPage, serveDir } from './browser';
import { treeScale } from './renderer-tree';

const HERE = path.dirname(fileURLToPath(import.meta.url));

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1000 } });
  await openBenchPage(page, url);
  return page;
}

export async function rendererBench(report: (f: Figure) => void): Promise<void> {
  const nodes = Math.round(envNum('BENCH_RENDER_NODES', 20));
  const rate = envNum('BENCH_RENDER_RATE', 60);
  const seconds = envNum('BENCH_RENDER_SECONDS', 4);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-page-'));
  let server: Server | undefined;
  const browser = await launchBenchChromium();
  try {
    const root = path.join(HERE, 'renderer-page');
    await buildBenchPage(root, dir);
    await buildBenchPage(root, path.join(dir, 'production'), false);
    const s = await serveDir(dir);
    server = s.server;
    const page = await openPage(browser, s.url);
    const go = (mode: 'frame' | 'sync', secs = seconds) =>
      page.evaluate((o: RenderBenchOptions) => (globalThis as unknown as { __stepwiseBench: { run(o: RenderBenchOptions): Promise<RenderBenchResult> } }).__stepwiseBench.run(o), { mode, nodes, rate, durationMs: secs * 1000, seed: 42 });
    await go('frame', 1); // warm-up (JIT, first layout), discarded
    const f = await go('frame');
    const b = await go('sync');
    const B = 'renderer';
    const label = `${nodes} nodes × ${rate} deltas/s`;
    const over = (r: RenderBenchResult) => (100 * r.rowFramesOver1) / Math.max(1, r.rowFrames);
    report({ bench: B, name: `${label}: React commits`, value: f.commits, unit: `in ${f.frames} frames`, baseline: { label: 'setState per delta', value: b.commits }, ratio: b.commits / Math.max(1, f.commits), ratioLabel: 'fewer' });
    report({ bench: B, name: `${label}: max commits in one frame`, value: f.maxCommitsPerFrame, unit: '', baseline: { label: 'setState per delta', value: b.maxCommitsPerFrame } });
    report({ bench: B, name: `${label}: row×frame pairs updated more than once`, value: over(f), unit: '%', baseline: { label: 'setState per delta', value: over(b) } });
    report({
      bench: B,
      name: `${label}: max updates of one row in one frame`,
      value: f.maxRowUpdatesPerFrame,
      unit: '',
      baseline: { label: 'setState per delta', value: b.maxRowUpdatesPerFrame },
      target: { text: '≤ 1 commit per row per frame', met: f.maxRowUpdatesPerFrame <= 1 },
    });
    const maxLong = maxOf(f.longTasks);
    report({ bench: B, name: `${label}: long tasks`, value: f.longTasks.length, unit: '', baseline: { label: 'setState per delta', value: b.longTasks.length } });
    report({
      bench: B,
      name: `${label}: longest long task`,
      value: maxLong,
      unit: 'ms',
      baseline: { label: 'setState per delta', value: maxOf(b.longTasks) },
      target: { text: 'no long task over 50 ms', met: maxLong <= 50 },
    });
    report({ bench: B, name: `${label}: text shown equals text sent`, value: f.textOk && b.textOk ? 1 : 0, unit: f.textOk && b.textOk ? '(yes)' : '(NO)', target: { text: 'equal', met: f.textOk && b.textOk } });
    await page.close();
    await treeScale(await openPage(browser, `${s.url}production/`), report);
  } finally {
    await browser.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
