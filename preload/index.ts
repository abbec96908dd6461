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
    if (typeof method !== 'string' || !/^[a-z]+\.[A-Za-z]+$/.test(method)) {
      return Promise.reject(new Error(`[bad_request] stepwise.invoke: ${JSON.stringify(method)} is not a host method name`));
    }
    if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
      return Promise.reject(new Error('[bad_request] stepwise.invoke: params must be an object'));
    }
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, params ?? {});
  },
  onPush(cb) {
    if (typeof cb !== 'function') throw new TypeError('stepwise.onPush: expected a function');
    // The IPC event (with its sender) never reaches the page: only the push payload does.
    // The renderer side of the contract's validation: only `{ type: string, … }` frames pass.
    const listener = (_event: IpcRendererEvent, push: HostPush) => {
      if (push && typeof push === 'object' && typeof (push as { type?: unknown }).type === 'string') cb(push);
    };
    ipcRenderer.on(PUSH_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(PUSH_CHANNEL, listener);
    };
  },
};

contextBridge.exposeInMainWorld('stepwise', api);
