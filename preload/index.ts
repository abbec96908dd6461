/**
 * Preload (sandboxed, emitted as CommonJS to out/preload/index.cjs): exposes exactly one API,
 * `window.stepwise = { invoke, onPush }`, through contextBridge — never `ipcRenderer` itself.
 * The channel names match main/electron/ipc.ts (a test checks it); preload may import only
 * `electron` and shared/ types.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { HostPush } from '../shared/protocol/host-api';

const INVOKE_CHANNEL = 'stepwise:invoke';
const PUSH_CHANNEL = 'stepwise:push';

/** What the renderer's desktop adapter (renderer/src/host/desktop.ts) expects. */
export interface StepwiseApi {
  /** One host request (`HostMethods`); rejects with `[code] message`. */
  invoke(method: string, params: unknown): Promise<unknown>;
  /** Registers for host pushes; returns the unsubscribe function. */
  onPush(cb: (push: HostPush) => void): () => void;
}

const api: StepwiseApi = {
  invoke(method, params) {
    if (typeof method !== 'string') return Promise.reject(new Error('[bad_request] stepwise.invoke: method must be a string'));
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, params ?? {});
  },
  onPush(cb) {
    if (typeof cb !== 'function') throw new TypeError('stepwise.onPush: expected a function');
    // The IPC event (with its sender) never reaches the page: only the push payload does.
    const listener = (_event: IpcRendererEvent, push: HostPush) => cb(push);
    ipcRenderer.on(PUSH_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(PUSH_CHANNEL, listener);
    };
  },
};

contextBridge.exposeInMainWorld('stepwise', api);
