/**
 * For renderer component tests in jsdom: what jsdom lacks of a browser (Mantine, the panel
 * layout and the editors ask for it), and the app's state over one thread, opened editable
 * through the viewer host's answers, with a component mounted under it.
 */
import { afterEach, beforeAll } from 'vitest';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Provider as JotaiProvider } from 'jotai';
import { AppState } from '../../renderer/src/state/app';
import { AppStateProvider } from '../../renderer/src/state/context';
import { createViewerHost } from '../../renderer/src/host/viewer';
import type { ThreadSession } from '../../renderer/src/state/thread-session';
import type { Thread } from '../../shared/thread/schema';

/** What jsdom lacks and Mantine, the panel layout and the editors ask of a browser. Call in beforeAll. */
export function browserShims(): void {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  // CodeMirror measures text ranges.
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
  // Mantine's combobox scrolls its selected option into view.
  Element.prototype.scrollIntoView ??= () => {};
  // Mantine's autosizing textarea listens for web fonts loading.
  if (!(document as { fonts?: unknown }).fonts) {
    Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() } });
  }
}

/** Waits for `cond`, letting the host's answers and pushes re-render the window (inside act) between checks. */
export async function until(cond: () => unknown, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await act(() => new Promise((r) => setTimeout(r, 10)));
  }
}

/** The app's state with `thread` open, editable (the viewer host's answers, not presentational). */
export async function openedApp(thread: Thread): Promise<{ app: AppState; session: ThreadSession }> {
  const app = new AppState({ ...createViewerHost(thread), presentational: false });
  await app.openThread(`${thread.title}.json`);
  return { app, session: app.store.get(app.sessionAtom)! };
}

/** Mounts `node` under `app` (Mantine, the app's state and its store) in a new element of the page. */
export function mountInApp(app: AppState, node: ReactNode): { root: Root; el: HTMLElement; render(node: ReactNode): void } {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  const render = (n: ReactNode) =>
    act(() =>
      root.render(
        <MantineProvider>
          <AppStateProvider app={app}>
            <JotaiProvider store={app.store}>{n}</JotaiProvider>
          </AppStateProvider>
        </MantineProvider>,
      ),
    );
  render(node);
  return { root, el, render };
}

/**
 * For a test file: React's act environment, the shims before its tests, and after each test the
 * roots `mount` made unmounted and the page emptied. Returns `mount` ({@link mountInApp}).
 */
export function appTests(): typeof mountInApp {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const roots: Root[] = [];
  beforeAll(browserShims);
  afterEach(() => {
    act(() => roots.splice(0).forEach((r) => r.unmount()));
    document.body.innerHTML = '';
  });
  return (app, node) => {
    const m = mountInApp(app, node);
    roots.push(m.root);
    return m;
  };
}

