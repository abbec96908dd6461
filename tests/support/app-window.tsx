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

export { browserShims, until } from './jsdom-app';


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
