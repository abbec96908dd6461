/**
 * Shared by the bench page's scenarios: mounting a tree component over a fresh AppState
 * (viewer host, real StreamStore, Mantine, Jotai) with a React Profiler, and watching what
 * happens per animation frame: commits, DOM updates per row (MutationObserver on
 * `[data-node-id]` subtrees), long tasks, and frame intervals.
 */
import { Profiler, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Provider as JotaiProvider } from 'jotai';
import { AppState } from '../../renderer/src/state/app';
import { AppStateProvider } from '../../renderer/src/state/context';
import { StreamStore } from '../../renderer/src/state/stream-store';
import { createViewerHost } from '../../renderer/src/host/viewer';
import { exampleThread } from '../../renderer/src/sample-thread';
import type { HostPush } from '../../shared/protocol/host-api';

/** A mounted tree: its app state, its host element, React commits so far. */
export interface Mounted {
  app: AppState;
  host: HTMLElement;
  commits(): number;
  unmount(): void;
}

/**
 * Mounts `tree` into #root. `syncStore` swaps in a store that publishes atoms on every push
 * instead of once per frame (the delta benchmark's baseline).
 */
export function mountTree(tree: ReactNode, syncStore = false): Mounted {
  const app = new AppState(createViewerHost(exampleThread(), []));
  if (syncStore) (app as { stream: StreamStore }).stream = new StreamStore(app.store, { requestSnapshot: () => {}, schedule: (cb) => cb() });
  const container = document.getElementById('root')!;
  container.replaceChildren();
  const host = document.createElement('div');
  host.style.cssText = 'flex:1; min-height:0; display:flex; flex-direction:column';
  container.append(host);
  let commits = 0;
  const root = createRoot(host);
  root.render(
    <MantineProvider>
      <AppStateProvider app={app}>
        <JotaiProvider store={app.store}>
          <Profiler id="tree" onRender={() => void commits++}>
            {tree}
          </Profiler>
        </JotaiProvider>
      </AppStateProvider>
    </MantineProvider>,
  );
  return { app, host, commits: () => commits, unmount: () => root.unmount() };
}

export const nextFrame = (): Promise<number> => new Promise((r) => requestAnimationFrame((t) => r(t)));

/** Resolves in a new task (after React's microtask flushes and any rendering due before it). */
export function nextTask(): Promise<void> {
  return new Promise((r) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => r();
    ch.port2.postMessage(null);
  });
}

/** What {@link watchFrames} saw. */
export interface FrameWatch {
  frames: number;
  /** Per frame: React commits. */
  commitsByFrame: number[];
  /** Row × frame pairs with a DOM update: how many updates each had. */
  rowUpdates: number[];
  /** ms between consecutive animation frames. */
  intervals: number[];
  longTasks: number[];
}

/** Watches `host` frame by frame until the returned stop() is called. */
export function watchFrames(host: HTMLElement, commits: () => number): () => FrameWatch {
  let frame = 0;
  let running = true;
  let last = -1;
  let lastCommits = commits();
  const intervals: number[] = [];
  const commitsByFrame: number[] = [];
  const tick = (t: number) => {
    if (last >= 0) intervals.push(t - last);
    last = t;
    const c = commits();
    commitsByFrame.push(c - lastCommits);
    lastCommits = c;
    frame++;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const rowUpdates = new Map<string, number>();
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
  return () => {
    running = false;
    mo.disconnect();
    po.disconnect();
    commitsByFrame.push(commits() - lastCommits);
    return { frames: frame, commitsByFrame, rowUpdates: [...rowUpdates.values()], intervals, longTasks };
  };
}

/**
 * Delivers `arrivals` (sorted by `at`, ms from now) each in its own task over a MessageChannel,
 * like WebSocket messages: `make` builds the push when it is due, `apply` receives it.
 */
export function deliver<A extends { at: number }>(arrivals: A[], make: (a: A) => HostPush, apply: (p: HostPush) => void): Promise<void> {
  return new Promise<void>((done) => {
    const channel = new MessageChannel();
    // A null message after the last push says all were applied.
    channel.port1.onmessage = (e: MessageEvent<HostPush | null>) => {
      if (e.data) return apply(e.data);
      channel.port1.close();
      done();
    };
    const t0 = performance.now();
    let next = 0;
    const pump = () => {
      const now = performance.now() - t0;
      while (next < arrivals.length && arrivals[next].at <= now) channel.port2.postMessage(make(arrivals[next++]));
      if (next < arrivals.length) setTimeout(pump, 1);
      else channel.port2.postMessage(null);
    };
    pump();
  });
}
