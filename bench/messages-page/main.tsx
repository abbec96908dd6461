/**
 * Bench-only page (built by bench/messages.ts with vite into a temp dir): mounts the real
 * playground (or, for the baseline, the playground before its message list was virtualised,
 * old-playground.tsx) over the real AppState and an in-memory host holding one thread, and
 * exposes `window.__stepwiseBench.run(opts)`: open the thread as the app does
 * (`AppState.openThread`), time the first message card painted and the editors in view made,
 * record long tasks (PerformanceObserver 'longtask'), count the list's DOM elements, then scroll
 * to the end and back a fixed number of pixels per frame.
 */
import '@mantine/core/styles.css';
import '../../renderer/src/styles.css';
import { createRoot } from 'react-dom/client';
import { MantineProvider, createTheme } from '@mantine/core';
import { Provider as JotaiProvider } from 'jotai';
import { AppState } from '../../renderer/src/state/app';
import { AppStateProvider } from '../../renderer/src/state/context';
import { createViewerHost } from '../../renderer/src/host/viewer';
import type { HostServices } from '../../renderer/src/host/types';
import { Playground } from '../../renderer/src/features/playground/Playground';
import type { Thread } from '../../shared/thread/schema';
import { OldPlayground } from './old-playground';
import type { MessagesBenchOptions, MessagesBenchResult } from './types';

// The app's theme (renderer/src/main.tsx): the same fonts, so the same layout.
const theme = createTheme({ primaryColor: 'indigo', fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', defaultRadius: 'sm' });

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

/** Resolves at the first frame where `ready()` holds; rejects after `timeoutMs`. */
async function until(ready: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const t0 = performance.now();
  while (!ready()) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await nextFrame();
  }
}

/** Static stand-ins for editors (ui/static-editor.tsx) that intersect the scroll viewport. */
function staticInView(viewport: Element): number {
  const box = viewport.getBoundingClientRect();
  return [...viewport.querySelectorAll('.sw-static-editor')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.bottom > box.top && r.top < box.bottom;
  }).length;
}

async function run(o: MessagesBenchOptions): Promise<MessagesBenchResult> {
  const thread = (await (await fetch(o.threadUrl)).json()) as Thread;
  // An editable window over the thread: the viewer host's answers, not presentational.
  const host: HostServices = { ...createViewerHost(thread), presentational: false };
  const app = new AppState(host);
  const container = document.getElementById('root')!;
  container.replaceChildren();
  const el = document.createElement('div');
  el.style.cssText = 'flex:1; min-height:0; display:flex; flex-direction:column';
  container.append(el);
  const root = createRoot(el);
  root.render(
    <MantineProvider theme={theme}>
      <AppStateProvider app={app}>
        <JotaiProvider store={app.store}>{o.list === 'old' ? <OldPlayground /> : <Playground />}</JotaiProvider>
      </AppStateProvider>
    </MantineProvider>,
  );
  for (let i = 0; i < 5; i++) await nextFrame();

  let longTasks: number[] = [];
  const po = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(e.duration);
  });
  po.observe({ type: 'longtask', buffered: false });
  const n = thread.context.messages.length;
  const t0 = performance.now();
  void app.openThread(`${thread.title}.json`);
  await until(() => !!document.querySelector('[aria-label="user message 1"]'), 300_000, 'the first message');
  const firstVisibleMs = performance.now() - t0;
  const viewport = el.querySelector('.mantine-ScrollArea-viewport')!;
  await until(() => staticInView(viewport) === 0, o.settleTimeoutMs, 'the editors in view');
  const editorsReadyMs = performance.now() - t0;
  for (let i = 0; i < 30; i++) await nextFrame(); // tasks still queued after the last editor
  const openLongTasks = longTasks;
  const section = () => el.querySelector('section[aria-label^="Messages ("]')!;
  const listNodes = section().querySelectorAll('*').length;

  longTasks = [];
  let maxListNodes = listNodes;
  let frames = 0;
  let reachedEnd = false;
  if (o.scrollStep > 0) {
    const atEnd = () => viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - 1;
    while (!atEnd() && frames < 20_000) {
      viewport.scrollTop += o.scrollStep;
      await nextFrame();
      frames++;
      maxListNodes = Math.max(maxListNodes, section().querySelectorAll('*').length);
    }
    for (let i = 0; i < 10; i++) await nextFrame();
    const last = el.querySelector(`[aria-label$=" message ${n}"]`);
    const box = viewport.getBoundingClientRect();
    const r = last?.getBoundingClientRect();
    reachedEnd = !!r && r.bottom > box.top && r.top < box.bottom;
    while (viewport.scrollTop > 0 && frames < 40_000) {
      viewport.scrollTop -= o.scrollStep;
      await nextFrame();
      frames++;
      maxListNodes = Math.max(maxListNodes, section().querySelectorAll('*').length);
    }
    for (let i = 0; i < 10; i++) await nextFrame();
  }
  po.disconnect();
  root.unmount();
  return { messages: n, firstVisibleMs, editorsReadyMs, openLongTasks, listNodes, maxListNodes, scrollLongTasks: longTasks, scrollFrames: frames, reachedEnd };
}

(window as unknown as { __stepwiseBench: { run: typeof run; ready: boolean } }).__stepwiseBench = { run, ready: true };
