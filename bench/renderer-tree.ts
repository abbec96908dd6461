/**
 * The renderer benchmark's tree-scale figures (bench/renderer-page/tree-scale.tsx), run on a
 * production build of the bench page (no profiling overhead), as the app runs:
 * - Fold: a finished ReAct tree of BENCH_TREE_NODES (default 10,000) nodes; its run node is
 *   collapsed and expanded BENCH_TREE_REPS times (default 5) from the keyboard, after a
 *   discarded warm-up at the same size. Target: within one frame, a median of ≤ 16.7 ms of
 *   main-thread CPU from the key press to the painted frame (the worst is reported too).
 * - Grow: a ReAct run of BENCH_TREE_GROW_NODES (default 3,000) nodes arrives live at
 *   BENCH_TREE_GROW_RATE nodes/s (default 200) while its newest llm node streams text at 60
 *   deltas/s. Targets: ≤ 1 update per row per frame, the main thread keeps up (≤ 16.7 ms of
 *   CPU per frame on average), no long task over 50 ms, the view follows the newest node.
 * - At 100,000 nodes (BENCH_TREE_BIG_NODES), a ReAct run and a chain nested one level per node:
 *   the fold (BENCH_TREE_BIG_REPS, default 3) and a live growth at BENCH_TREE_BIG_RATE nodes/s
 *   (default 2,000), the real tree only (the baseline takes minutes to mount 100,000 rows).
 *   Targets: folds leave the right rows, ≤ 1 update per row per frame, the main thread keeps up
 *   (CPU per frame), the view follows; the fold's CPU is reported against the 10,000-node one.
 * Baseline for both: the same rows without virtualisation (every row mounted, rows re-derived
 * on every render; bench/renderer-page/all-rows-tree.tsx), folded once.
 * Main-thread CPU comes from CDP (Performance.getMetrics ThreadTime) around each step: on a
 * machine shared with other work the wall clock also counts time spent waiting for a core.
 * Each fold step starts after a garbage collection (Chromium runs with --expose-gc), so it
 * pays for its own garbage only.
 */
import type { Page } from 'playwright-core';
import type { TreeFoldOptions, TreeFoldStep, TreeGrowOptions, TreeGrowResult, TreeMode, TreeShape } from './renderer-page/types';
import { envNum, maxOf, percentile, type Figure } from './lib';

type BenchPage = {
  treeFoldOpen(o: TreeFoldOptions): Promise<TreeFoldStep>;
  treeFoldPress(key: 'ArrowLeft' | 'ArrowRight' | 'Shift'): Promise<TreeFoldStep>;
  treeFoldClose(): number[];
  runTreeGrow(o: TreeGrowOptions): Promise<TreeGrowResult>;
};
const yes = (ok: boolean) => ({ value: ok ? 1 : 0, unit: '(1 = yes)' });
const median = (xs: number[]) => percentile(xs, 50);
const worst = (xs: number[]) => maxOf(xs);
const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');

/** A fold step as measured: wall-clock work (ms) and the main thread's CPU time (ms) around it. */
type Step = TreeFoldStep & { cpu: number };
interface Fold {
  open: Step;
  collapse: Step[];
  expand: Step[];
  /** A key press that does nothing: what measuring a step costs by itself. */
  idle: Step[];
  longTasks: number[];
}
type G = { __stepwiseBench: BenchPage };

/** Runs `f` and returns its result with the renderer main thread's CPU time (ms) spent meanwhile. */
async function withCpu<T>(page: Page, f: () => Promise<T>): Promise<{ r: T; cpu: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Performance.enable');
    const cpu = async () => {
      const t = (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime');
      if (!t) throw new Error('CDP Performance.getMetrics has no ThreadTime');
      return 1000 * t.value;
    };
    const c0 = await cpu();
    const r = await f();
    return { r, cpu: (await cpu()) - c0 };
  } finally {
    await cdp.detach();
  }
}

/** The fold scenario, step by step, each step measured. */
async function fold(page: Page, mode: TreeMode, nodes: number, reps: number, shape: TreeShape = 'react'): Promise<Fold> {
  const step = async (f: () => Promise<TreeFoldStep>): Promise<Step> => {
    // Collect the garbage of earlier steps first, so a step pays only for its own.
    await page.evaluate(() => (globalThis as { gc?: () => void }).gc?.());
    const { r, cpu } = await withCpu(page, f);
    return { ...r, cpu };
  };
  const press = (key: 'ArrowLeft' | 'ArrowRight' | 'Shift') => step(() => page.evaluate((k) => (globalThis as unknown as G).__stepwiseBench.treeFoldPress(k), key));
  const open = await step(() => page.evaluate((o) => (globalThis as unknown as G).__stepwiseBench.treeFoldOpen(o), { mode, nodes, shape }));
  const collapse: Step[] = [];
  const expand: Step[] = [];
  const idle: Step[] = [];
  for (let r = 0; r < reps; r++) {
    idle.push(await press('Shift'));
    collapse.push(await press('ArrowLeft'));
    expand.push(await press('ArrowRight'));
  }
  const longTasks = await page.evaluate(() => (globalThis as unknown as G).__stepwiseBench.treeFoldClose());
  return { open, collapse, expand, idle, longTasks };
}

/** The tree-scale figures: folding a big tree, and a tree growing live (see the file comment). */
export async function treeScale(page: Page, report: (f: Figure) => void): Promise<void> {
  const nodes = Math.round(envNum('BENCH_TREE_NODES', 10_000));
  const reps = Math.round(envNum('BENCH_TREE_REPS', 5));
  const growNodes = Math.round(envNum('BENCH_TREE_GROW_NODES', 3_000));
  const rate = envNum('BENCH_TREE_GROW_RATE', 200);
  const grow = async (o: TreeGrowOptions) => {
    const { r, cpu } = await withCpu(page, () => page.evaluate((x) => (globalThis as unknown as G).__stepwiseBench.runTreeGrow(x), o));
    return { ...r, cpu };
  };
  const B = 'renderer';
  const BASE = 'all rows mounted';
  await fold(page, 'virtual', nodes, 2); // warm-up (JIT at this size), discarded
  const f = await fold(page, 'virtual', nodes, reps);
  const b = await fold(page, 'all-rows', nodes, 1);
  const tree = `${nodes.toLocaleString('en-US')}-node tree`;
  report({ bench: B, name: `${tree}: open (main-thread CPU)`, value: f.open.cpu, unit: 'ms', baseline: { label: BASE, value: b.open.cpu }, ratio: b.open.cpu / f.open.cpu, ratioLabel: 'less', note: `wall ${f.open.ms.toFixed(1)} ms (baseline ${b.open.ms.toFixed(1)} ms)` });
  report({ bench: B, name: `${tree}: rows in the DOM`, value: f.open.rows, unit: '', baseline: { label: BASE, value: b.open.rows } });
  for (const [what, fs, bs] of [['collapse', f.collapse, b.collapse], ['expand', f.expand, b.expand]] as const) {
    const c = fs.map((x) => x.cpu);
    const bc = bs.map((x) => x.cpu);
    report({
      bench: B,
      name: `${tree}: ${what} the run node (main-thread CPU, median of ${reps})`,
      value: median(c),
      unit: 'ms',
      baseline: { label: BASE, value: median(bc) },
      ratio: median(bc) / median(c),
      ratioLabel: 'less',
      target: { text: 'within one frame (16.7 ms)', met: median(c) <= 1000 / 60 },
      note: `from the key press to the painted frame; CPU each: ${list(c)} ms (a key press that does nothing, measured the same way: ${list(f.idle.map((x) => x.cpu))} ms); wall each: ${list(fs.map((x) => x.ms))} ms (baseline wall ${list(bs.map((x) => x.ms))} ms)`,
    });
    report({ bench: B, name: `${tree}: ${what} the run node (main-thread CPU, worst of ${reps})`, value: worst(c), unit: 'ms', baseline: { label: BASE, value: worst(bc) } });
    report({ bench: B, name: `${tree}: ${what} the run node (wall clock, median of ${reps})`, value: median(fs.map((x) => x.ms)), unit: 'ms', baseline: { label: BASE, value: median(bs.map((x) => x.ms)) } });
  }
  const foldOk = [...f.collapse, ...b.collapse].every((s) => s.rows === 1) && f.expand.every((s) => s.rows > 1) && b.expand.every((s) => s.rows === nodes);
  report({ bench: B, name: `${tree}: collapse leaves 1 row, expand brings them back`, ...yes(foldOk), target: { text: 'yes', met: foldOk } });

  await grow({ mode: 'virtual', nodes: 300, rate, deltaRate: 60 }); // warm-up, discarded
  const g = await grow({ mode: 'virtual', nodes: growNodes, rate, deltaRate: 60 });
  const h = await grow({ mode: 'all-rows', nodes: growNodes, rate, deltaRate: 60 });
  const live = `${growNodes.toLocaleString('en-US')} nodes arriving at ${rate}/s`;
  report({ bench: B, name: `${live}: max updates of one row in one frame`, value: g.maxRowUpdatesPerFrame, unit: '', baseline: { label: BASE, value: h.maxRowUpdatesPerFrame }, target: { text: '≤ 1 commit per row per frame', met: g.maxRowUpdatesPerFrame <= 1 } });
  report({ bench: B, name: `${live}: longest long task`, value: worst(g.longTasks), unit: 'ms', baseline: { label: BASE, value: worst(h.longTasks) }, target: { text: 'no long task over 50 ms', met: worst(g.longTasks) <= 50 }, note: `${g.longTasks.length} long tasks (baseline ${h.longTasks.length})` });
  report({ bench: B, name: `${live}: main-thread CPU per frame`, value: g.cpu / g.frames, unit: 'ms', baseline: { label: BASE, value: h.cpu / h.frames }, target: { text: 'the main thread keeps up (≤ 16.7 ms a frame)', met: g.cpu / g.frames <= 1000 / 60 }, note: `${(g.cpu / 1000).toFixed(2)} s of CPU in ${(g.durationMs / 1000).toFixed(1)} s (baseline ${(h.cpu / 1000).toFixed(2)} s in ${(h.durationMs / 1000).toFixed(1)} s)` });
  report({ bench: B, name: `${live}: frame interval p95`, value: g.frameP95, unit: 'ms', baseline: { label: BASE, value: h.frameP95 }, note: `worst ${g.frameMax.toFixed(1)} ms (baseline ${h.frameMax.toFixed(1)} ms); ${g.frames} frames in ${(g.durationMs / 1000).toFixed(1)} s (baseline ${h.frames} in ${(h.durationMs / 1000).toFixed(1)} s)` });
  report({ bench: B, name: `${live}: newest node in view at the end`, ...yes(g.followed), baseline: { label: BASE, value: h.followed ? 1 : 0 }, target: { text: 'the view follows the run', met: g.followed } });
  await bigTree(page, report, grow, median(f.collapse.map((x) => x.cpu)), median(f.expand.map((x) => x.cpu)), tree);
}

/** The 100,000-node figures (see the file comment), wide and deep, the real tree only. */
async function bigTree(page: Page, report: (f: Figure) => void, grow: (o: TreeGrowOptions) => Promise<TreeGrowResult & { cpu: number }>, collapse10k: number, expand10k: number, tree10k: string): Promise<void> {
  const B = 'renderer';
  const nodes = Math.round(envNum('BENCH_TREE_BIG_NODES', 100_000));
  const reps = Math.round(envNum('BENCH_TREE_BIG_REPS', 3));
  const rate = envNum('BENCH_TREE_BIG_RATE', 2_000);
  for (const shape of ['react', 'chain'] as const) {
    const what = `${nodes.toLocaleString('en-US')}-node ${shape === 'react' ? 'ReAct tree' : `chain (${nodes.toLocaleString('en-US')} levels)`}`;
    const f = await fold(page, 'virtual', nodes, reps, shape);
    report({ bench: B, name: `${what}: open (main-thread CPU)`, value: f.open.cpu, unit: 'ms', note: `wall ${f.open.ms.toFixed(1)} ms; ${f.open.rows} rows in the DOM` });
    for (const [act, steps, ref] of [['collapse', f.collapse, collapse10k], ['expand', f.expand, expand10k]] as const) {
      const c = steps.map((x) => x.cpu);
      report({ bench: B, name: `${what}: ${act} the run node (main-thread CPU, median of ${reps})`, value: median(c), unit: 'ms', baseline: { label: tree10k, value: ref }, note: `from the key press to the painted frame; CPU each: ${list(c)} ms` });
    }
    const ok = f.collapse.every((x) => x.rows === 1) && f.expand.every((x) => x.rows > 1);
    report({ bench: B, name: `${what}: collapse leaves 1 row, expand brings them back`, ...yes(ok), target: { text: 'yes', met: ok } });
    const g = await grow({ mode: 'virtual', nodes, rate, deltaRate: 60, shape });
    const live = `${what} arriving at ${rate.toLocaleString('en-US')}/s`;
    report({ bench: B, name: `${live}: max updates of one row in one frame`, value: g.maxRowUpdatesPerFrame, unit: '', target: { text: '≤ 1 commit per row per frame', met: g.maxRowUpdatesPerFrame <= 1 } });
    report({ bench: B, name: `${live}: main-thread CPU per frame`, value: g.cpu / g.frames, unit: 'ms', target: { text: 'the main thread keeps up (≤ 16.7 ms a frame)', met: g.cpu / g.frames <= 1000 / 60 }, note: `${(g.cpu / 1000).toFixed(2)} s of CPU in ${(g.durationMs / 1000).toFixed(1)} s, ${g.frames} frames; longest long task ${worst(g.longTasks).toFixed(0)} ms wall (${g.longTasks.length} long tasks)` });
    report({ bench: B, name: `${live}: newest node in view at the end`, ...yes(g.followed), target: { text: 'the view follows the run', met: g.followed } });
  }
}
