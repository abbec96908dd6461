/**
 * Tree-scale scenarios of the renderer benchmark, run in Chromium on the bench page, on a
 * ReAct run (run → turns of llm → 2 tools) or a chain (each node nested in the one before):
 * - fold: a finished run of N nodes is published at once;
 *   then the run node is collapsed and expanded with the keyboard (ArrowLeft / ArrowRight on
 *   its row), measuring the main-thread work from the key press to the painted frame. Driven
 *   step by step from bench/renderer.ts, which reads the main thread's CPU time around each.
 * - grow: a ReAct run's nodes arrive live at a given rate, each push in its own task, while
 *   the newest llm node streams text (a new turn completes the previous one); measures frames, long tasks, DOM updates per row per
 *   frame, and whether the view followed the newest node.
 * `mode: 'virtual'` mounts the real ExecutionTree; `'all-rows'` the non-virtualised baseline.
 */
import type { ReactNode } from 'react';
import { ExecutionTree } from '../../renderer/src/features/execution/ExecutionTree';
import type { ExecNode } from '../../shared/protocol/nodes';
import type { HostPush } from '../../shared/protocol/host-api';
import { maxOf, percentile } from '../lib';
import { AllRowsTree } from './all-rows-tree';
import { deliver, mountTree, nextFrame, nextTask, watchFrames, type FrameWatch } from './mount';
import type { TreeFoldOptions, TreeFoldStep, TreeGrowOptions, TreeGrowResult, TreeMode, TreeShape } from './types';

const tree = (mode: TreeMode, runId: string): ReactNode => (mode === 'virtual' ? <ExecutionTree runId={runId} /> : <AllRowsTree runId={runId} />);

/** Node n (0-based) of a ReAct run: the run node, then per turn an llm node and its two tool calls. */
function reactNode(runId: string, n: number, done: boolean): ExecNode {
  const t = Date.now();
  const status = done ? 'completed' : 'running';
  if (n === 0) return { id: `${runId}.run`, runId, kind: 'run', name: 'react', status, startedAt: t };
  const k = Math.floor((n - 1) / 3);
  const llm = `${runId}.l${k}`;
  if ((n - 1) % 3 === 0) {
    return { id: llm, runId, parentId: `${runId}.run`, kind: 'llm', name: 'scripted', status, startedAt: t, ...(done && { endedAt: t + 40, output: { text: `Turn ${k}: checking the sum, then echoing it.` }, usage: { inputTokens: 100 + k, outputTokens: 12 } }) };
  }
  const which = (n - 1) % 3 === 1 ? 'a' : 'b';
  return {
    id: `${runId}.${which}${k}`, runId, parentId: llm, kind: 'tool', name: which === 'a' ? 'get-sum' : 'echo', status, startedAt: t, input: which === 'a' ? { a: k, b: 2 } : { message: `total ${k}` },
    ...(done && { endedAt: t + 5, output: { content: [{ type: 'text', text: which === 'a' ? `The sum of ${k} and 2 is ${k + 2}.` : `Echo: total ${k}` }] } }),
  };
}

/** Node n (0-based) of a chain: the run node, then each node the only child of the one before. */
function chainNode(runId: string, n: number, done: boolean): ExecNode {
  const t = Date.now();
  const status = done ? 'completed' : 'running';
  if (n === 0) return { id: `${runId}.run`, runId, kind: 'run', name: 'chain', status, startedAt: t };
  return { id: `${runId}.c${n}`, runId, parentId: n === 1 ? `${runId}.run` : `${runId}.c${n - 1}`, kind: 'agent', name: `agent ${n}`, status, startedAt: t, ...(done && { endedAt: t + 5, output: { text: `Level ${n} done.` } }) };
}

const nodeOf = (shape: TreeShape | undefined) => (shape === 'chain' ? chainNode : reactNode);

const rowCount = (host: HTMLElement) => host.querySelectorAll('[role="treeitem"]').length;

/** Main-thread work (ms) of `action` until its result is painted, without the idle wait for the frame. */
async function work(host: HTMLElement, action: () => void): Promise<number> {
  await nextFrame();
  await nextTask();
  const t0 = performance.now();
  action();
  await nextTask(); // React's flush of the discrete update runs in a microtask before this
  void host.offsetHeight; // style and layout
  const sync = performance.now() - t0;
  await nextFrame(); // the frame that paints it: ResizeObserver re-measures, style, layout, paint
  const tA = performance.now();
  await nextTask();
  return sync + (performance.now() - tA);
}

function press(host: HTMLElement, nodeId: string, key: string): void {
  const row = host.querySelector(`[data-node-id="${CSS.escape(nodeId)}"]`);
  if (!row) throw new Error(`row ${nodeId} is not in the DOM`);
  row.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
}

let folding: { mode: TreeMode; runId: string; m: ReturnType<typeof mountTree>; stop: () => FrameWatch; nodes: number; openMs: number; mountedRows: number } | undefined;

/** Fold scenario, step 1: mounts the tree and publishes a finished ReAct run of `nodes` nodes. */
export async function treeFoldOpen(o: TreeFoldOptions): Promise<TreeFoldStep> {
  const runId = `fold-${o.mode}-${o.shape ?? 'react'}-${o.nodes}`;
  const m = mountTree(tree(o.mode, runId));
  await nextFrame();
  const make = nodeOf(o.shape);
  const nodes = Array.from({ length: o.nodes }, (_, n) => make(runId, n, true));
  const stop = watchFrames(m.host, m.commits);
  const openMs = await work(m.host, () => {
    m.app.stream.apply({ v: 1, type: 'tree_update', runId, nodes });
    m.app.stream.flush();
  });
  for (let i = 0; i < 3; i++) await nextFrame();
  folding = { mode: o.mode, runId, m, stop, nodes: o.nodes, openMs, mountedRows: rowCount(m.host) };
  return { ms: openMs, rows: folding.mountedRows };
}

/**
 * Fold scenario, step 2 (repeated): ArrowLeft (collapse) or ArrowRight (expand) on the run
 * node's row; Shift does nothing there and measures the measuring.
 */
export async function treeFoldPress(key: 'ArrowLeft' | 'ArrowRight' | 'Shift'): Promise<TreeFoldStep> {
  const f = folding!;
  const ms = await work(f.m.host, () => press(f.m.host, `${f.runId}.run`, key));
  return { ms, rows: rowCount(f.m.host) };
}

/** Fold scenario, step 3: unmounts; the long tasks seen since step 1. */
export function treeFoldClose(): number[] {
  const f = folding!;
  folding = undefined;
  const w = f.stop();
  f.m.unmount();
  return w.longTasks;
}

export async function runTreeGrow(o: TreeGrowOptions): Promise<TreeGrowResult> {
  const runId = `grow-${o.mode}-${o.shape ?? 'react'}-${o.nodes}`;
  const make = nodeOf(o.shape);
  const m = mountTree(tree(o.mode, runId));
  await nextFrame();
  type Arrival = { at: number; push: () => HostPush };
  const arrivals: Arrival[] = [];
  const seq = new Map<string, number>();
  const nodeEvery = 1000 / o.rate;
  const deltaEvery = 1000 / o.deltaRate;
  for (let n = 0; n < o.nodes; n++) {
    const at = n * nodeEvery;
    arrivals.push({ at, push: () => ({ v: 1, type: 'tree_update', runId, nodes: [make(runId, n, false)] }) });
    // A new turn ends the previous one: its llm node and its two tool calls complete (a chain's nodes stay open, nested).
    if (o.shape !== 'chain' && n > 3 && (n - 1) % 3 === 0) arrivals.push({ at, push: () => ({ v: 1, type: 'tree_update', runId, nodes: [n - 3, n - 2, n - 1].map((j) => reactNode(runId, j, true)) }) });
  }
  // Text streams into the newest llm node throughout.
  for (let t = deltaEvery / 2; t < o.nodes * nodeEvery; t += deltaEvery) {
    const n = Math.floor(t / nodeEvery);
    if (n < 1) continue;
    // The newest llm node of a ReAct run, the newest node of a chain.
    const id = o.shape === 'chain' ? chainNode(runId, n, false).id : reactNode(runId, 1 + 3 * Math.floor((n - 1) / 3), false).id;
    arrivals.push({ at: t, push: () => {
      const s = (seq.get(id) ?? 0) + 1;
      seq.set(id, s);
      return { v: 1, type: 'llm_delta', runId, nodeId: id, channel: 'text', index: 0, delta: 'token ', seq: s };
    } });
  }
  arrivals.sort((a, b) => a.at - b.at);
  const stop = watchFrames(m.host, m.commits);
  const t0 = performance.now();
  await deliver(arrivals, (a) => a.push(), (p) => m.app.stream.apply(p));
  for (let i = 0; i < 5; i++) await nextFrame();
  const durationMs = performance.now() - t0;
  const w = stop();
  const newest = m.host.querySelector(`[data-node-id="${CSS.escape(make(runId, o.nodes - 1, true).id)}"]`);
  const viewport = scroller(m.host.querySelector('[role="tree"]')) ?? m.host;
  const followed = !!newest && isInView(newest, viewport);
  const mountedRows = rowCount(m.host);
  m.unmount();
  return {
    nodes: o.nodes,
    durationMs,
    frames: w.frames,
    frameP95: percentile(w.intervals, 95),
    frameMax: maxOf(w.intervals),
    rowFrames: w.rowUpdates.length,
    rowFramesOver1: w.rowUpdates.filter((c) => c > 1).length,
    maxRowUpdatesPerFrame: maxOf(w.rowUpdates),
    longTasks: w.longTasks,
    followed,
    mountedRows,
  };
}

/** The element that scrolls `el` (the nearest ancestor with overflow-y auto or scroll). */
function scroller(el: Element | null): Element | null {
  for (let e = el?.parentElement; e; e = e.parentElement) if (/auto|scroll/.test(getComputedStyle(e).overflowY)) return e;
  return null;
}

function isInView(el: Element, viewport: Element): boolean {
  const r = el.getBoundingClientRect();
  const v = viewport.getBoundingClientRect();
  return r.bottom > v.top && r.top < v.bottom;
}
