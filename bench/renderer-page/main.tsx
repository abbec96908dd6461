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
import { Profiler } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Provider as JotaiProvider } from 'jotai';
import { AppState } from '../../renderer/src/state/app';
import { AppStateProvider } from '../../renderer/src/state/context';
import { StreamStore } from '../../renderer/src/state/stream-store';
import { ExecutionTree } from '../../renderer/src/features/execution/ExecutionTree';
import { createViewerHost } from '../../renderer/src/host/viewer';
import { exampleThread } from '../../renderer/src/sample-thread';
import type { HostPush } from '../../shared/protocol/host-api';
import type { RenderBenchOptions, RenderBenchResult } from './types';
import { rng } from '../../tests/support/rng';

const WORDS = ['the ', 'model ', 'streams ', 'a ', 'token ', 'into ', 'each ', 'row, ', 'and ', 'it ', 'grows.\n'];

async function run(o: RenderBenchOptions): Promise<RenderBenchResult> {
  const app = new AppState(createViewerHost(exampleThread(), []));
  if (o.mode === 'sync') {
    (app as { stream: StreamStore }).stream = new StreamStore(app.store, { requestSnapshot: () => {}, schedule: (cb) => cb() });
  }
  const runId = `bench-${o.mode}`;
  const container = document.getElementById('root')!;
  container.replaceChildren();
  const host = document.createElement('div');
  host.style.cssText = 'flex:1; min-height:0; display:flex; flex-direction:column';
  container.append(host);

  let frame = 0;
  let commits = 0;
  const commitsByFrame = new Map<number, number>();
  const rowUpdates = new Map<string, number>();
  const root = createRoot(host);
  root.render(
    <MantineProvider>
      <AppStateProvider app={app}>
        <JotaiProvider store={app.store}>
          <Profiler id="tree" onRender={() => { commits++; commitsByFrame.set(frame, (commitsByFrame.get(frame) ?? 0) + 1); }}>
            <ExecutionTree runId={runId} />
          </Profiler>
        </JotaiProvider>
      </AppStateProvider>
    </MantineProvider>,
  );
  const ids = Array.from({ length: o.nodes }, (_, k) => `${runId}.${k + 2}`);
  app.stream.apply({ v: 1, type: 'tree_update', runId, nodes: [
    { id: `${runId}.1`, runId, kind: 'run', name: 'bench', status: 'running', startedAt: Date.now() },
    ...ids.map((id, k) => ({ id, runId, parentId: `${runId}.1`, kind: 'llm' as const, name: `node ${k}`, status: 'running' as const, startedAt: Date.now() })),
  ] });
  const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
  for (let i = 0; i < 5; i++) await nextFrame();

  // Measurement starts here.
  commits = 0;
  commitsByFrame.clear();
  let running = true;
  const tick = () => {
    frame++;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const mo = new MutationObserver((records) => {
    const rows = new Set<string>();
    for (const r of records) {
      const el = (r.target.nodeType === 1 ? (r.target as Element) : r.target.parentElement)?.closest('[data-node-id]');
      const id = el?.getAttribute('data-node-id');
      if (id) rows.add(id);
    }
    for (const id of rows) rowUpdates.set(`${id}\u0000${frame}`, (rowUpdates.get(`${id}\u0000${frame}`) ?? 0) + 1);
  });
  mo.observe(host, { subtree: true, childList: true, characterData: true, attributes: true });
  const longTasks: number[] = [];
  const po = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(e.duration);
  });
  po.observe({ type: 'longtask', buffered: false });

  // Arrival schedule: each node's deltas evenly spaced with up to one interval of jitter.
  const r = rng(o.seed);
  const interval = 1000 / o.rate;
  const perNode = Math.floor((o.durationMs / 1000) * o.rate);
  const arrivals: { at: number; k: number; i: number }[] = [];
  for (let k = 0; k < o.nodes; k++) for (let i = 0; i < perNode; i++) arrivals.push({ at: (i + (k / o.nodes)) * interval + r() * interval, k, i });
  arrivals.sort((a, b) => a.at - b.at);
  const sent = ids.map(() => '');
  const seq = new Uint32Array(o.nodes);
  const channel = new MessageChannel();
  channel.port1.onmessage = (e: MessageEvent<HostPush>) => app.stream.apply(e.data);
  const t0 = performance.now();
  let next = 0;
  await new Promise<void>((done) => {
    const pump = () => {
      const now = performance.now() - t0;
      while (next < arrivals.length && arrivals[next].at <= now) {
        const { k, i } = arrivals[next++];
        const tok = WORDS[(i + k) % WORDS.length];
        sent[k] += tok;
        channel.port2.postMessage({ v: 1, type: 'llm_delta', runId, nodeId: ids[k], channel: 'text', index: 0, delta: tok, seq: ++seq[k] });
      }
      if (next < arrivals.length) setTimeout(pump, 1);
      else done();
    };
    pump();
  });
  for (let i = 0; i < 5; i++) await nextFrame();
  running = false;
  mo.disconnect();
  po.disconnect();
  const textOk = ids.every((id, k) => app.stream.live(id)?.text === sent[k]);
  root.unmount();
  const counts = [...rowUpdates.values()];
  return {
    frames: frame,
    deltas: arrivals.length,
    commits,
    maxCommitsPerFrame: Math.max(0, ...commitsByFrame.values()),
    rowFrames: counts.length,
    rowFramesOver1: counts.filter((c) => c > 1).length,
    maxRowUpdatesPerFrame: Math.max(0, ...counts),
    longTasks,
    textOk,
  };
}

(window as unknown as { __stepwiseBench: { run: typeof run; ready: boolean } }).__stepwiseBench = { run, ready: true };
