/**
 * Bench-only page (built by bench/renderer.ts with vite into a temp dir): mounts the real
 * execution tree (ExecutionTree → NodeRow, Mantine) over the real StreamStore and exposes
 * `window.__stepwiseBench.run(opts)`, which streams text into N llm nodes, each delta
 * delivered in its own task like a WebSocket message, and measures React commits (Profiler,
 * with react-dom/profiling aliased in), DOM updates per row per animation frame
 * (MutationObserver), and long tasks (PerformanceObserver 'longtask'). `mode: 'sync'` is the
 * baseline: the same store with a scheduler that publishes atoms on every delta.
 */
import '@mantine/core/styles.css';
import { ExecutionTree } from '../../renderer/src/features/execution/ExecutionTree';
import { deliver, mountTree, nextFrame, watchFrames } from './mount';
import { runTreeGrow, treeFoldClose, treeFoldOpen, treeFoldPress } from './tree-scale';
import type { RenderBenchOptions, RenderBenchResult } from './types';
import { rng } from '../../tests/support/rng';
import { maxOf } from '../lib';

const WORDS = ['the ', 'model ', 'streams ', 'a ', 'token ', 'into ', 'each ', 'row, ', 'and ', 'it ', 'grows.\n'];

async function run(o: RenderBenchOptions): Promise<RenderBenchResult> {
  const runId = `bench-${o.mode}`;
  const { app, host, commits, unmount } = mountTree(<ExecutionTree runId={runId} />, o.mode === 'sync');
  const ids = Array.from({ length: o.nodes }, (_, k) => `${runId}.${k + 2}`);
  app.stream.apply({ v: 1, type: 'tree_update', runId, nodes: [
    { id: `${runId}.1`, runId, kind: 'run', name: 'bench', status: 'running', startedAt: Date.now() },
    ...ids.map((id, k) => ({ id, runId, parentId: `${runId}.1`, kind: 'llm' as const, name: `node ${k}`, status: 'running' as const, startedAt: Date.now() })),
  ] });
  for (let i = 0; i < 5; i++) await nextFrame();

  // Measurement starts here.
  const stop = watchFrames(host, commits);

  // Arrival schedule: each node's deltas evenly spaced with up to one interval of jitter.
  const r = rng(o.seed);
  const interval = 1000 / o.rate;
  const perNode = Math.floor((o.durationMs / 1000) * o.rate);
  const arrivals: { at: number; k: number; i: number }[] = [];
  for (let k = 0; k < o.nodes; k++) for (let i = 0; i < perNode; i++) arrivals.push({ at: (i + (k / o.nodes)) * interval + r() * interval, k, i });
  arrivals.sort((a, b) => a.at - b.at);
  const sent = ids.map(() => '');
  const seq = new Uint32Array(o.nodes);
  await deliver(
    arrivals,
    ({ k, i }) => {
      const tok = WORDS[(i + k) % WORDS.length];
      sent[k] += tok;
      return { v: 1, type: 'llm_delta', runId, nodeId: ids[k], channel: 'text', index: 0, delta: tok, seq: ++seq[k] };
    },
    (p) => app.stream.apply(p),
  );
  for (let i = 0; i < 5; i++) await nextFrame();
  const w = stop();
  const textOk = ids.every((id, k) => app.stream.live(id)?.text === sent[k]);
  unmount();
  return {
    frames: w.frames,
    deltas: arrivals.length,
    commits: w.commitsByFrame.reduce((a, b) => a + b, 0),
    maxCommitsPerFrame: maxOf(w.commitsByFrame),
    rowFrames: w.rowUpdates.length,
    rowFramesOver1: w.rowUpdates.filter((c) => c > 1).length,
    maxRowUpdatesPerFrame: maxOf(w.rowUpdates),
    longTasks: w.longTasks,
    textOk,
  };
}

(window as unknown as { __stepwiseBench: unknown }).__stepwiseBench = { run, treeFoldOpen, treeFoldPress, treeFoldClose, runTreeGrow, ready: true };
