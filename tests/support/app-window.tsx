/**
 * The real App in jsdom, connected like a browser tab: the renderer's web adapter over a real
 * WebSocket to the real web host and host core on a temporary home. For window-level tests
 * (tests/integration/web/*.test.tsx) that open a thread file and read what the window shows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { WebSocket as NodeWebSocket } from 'ws';
import { createHostCore, type HostCore } from '../../main/core/host-core';
import { startWebHost } from '../../main/web/server';
import { createWebHost } from '../../renderer/src/host/web';
import { App } from '../../renderer/src/App';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** What jsdom lacks and Mantine, the panel layout and the editors ask of a browser. Call in beforeAll. */
export function browserShims(): void {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  // CodeMirror measures text ranges.
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
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

export interface AppWindow {
  core: HostCore;
  /** Unmounts the window and closes the adapter, the web host and the core. */
  close(): Promise<void>;
}

/** Starts the host on `home` and mounts the App with `initialPath` open. */
export async function openWindow(home: string, initialPath: string): Promise<AppWindow> {
  const core = await createHostCore({ home, log: () => {}, saveDebounceMs: 10 });
  const web = await startWebHost({ core, staticDir: fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-static-')), port: 0, token: 'tok', log: () => {} });
  const origin = `http://127.0.0.1:${web.port}`;
  const WithOrigin = class extends NodeWebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { origin } });
    }
  };
  const adapter = createWebHost(origin, 'tok', { WebSocketImpl: WithOrigin as unknown as typeof WebSocket });
  const el = document.createElement('div');
  document.body.append(el);
  const root: Root = createRoot(el);
  await act(async () => root.render(<MantineProvider><App host={adapter} initialPath={initialPath} /></MantineProvider>));
  return {
    core,
    close: async () => {
      act(() => root.unmount());
      el.remove();
      adapter.close();
      await web.close();
      await core.close();
    },
  };
}
