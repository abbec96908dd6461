/**
 * Preload (sandboxed, emitted as CommonJS to out/preload/index.cjs): exposes exactly one API,
 * `window.stepwise = { invoke, onPush }`, through contextBridge — never `ipcRenderer` itself.
 * The channel names match main/electron/ipc.ts (a test checks it); preload may import only
 * `electron` and shared/ types.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { HostPush } from '../shared/protocol/host-api';
import type { Outcome } from '../shared/protocol/contract/errors';

const INVOKE_CHANNEL = 'stepwise:invoke';
const PUSH_CHANNEL = 'stepwise:push';

/** What the renderer's desktop adapter (renderer/src/host/desktop.ts) expects. */
export interface StepwiseApi {
  /**
   * One host request (`HostMethods`), passed through to the main process. Resolves with its
   * {@link Outcome}, `{ ok: true, result }` or `{ ok: false, error: { message, code } }`
   * (the main process checks the method and params against the contract).
   */
  invoke(method: string, params: unknown): Promise<Outcome>;
  /** Registers for host pushes; returns the unsubscribe function. */
  onPush(cb: (push: HostPush) => void): () => void;
}

const refused = (message: string): Promise<Outcome> => Promise.resolve({ ok: false, error: { message, code: 'bad_request' } });

const api: StepwiseApi = {
  invoke(method, params) {
    // Only the request's shape is checked here, before anything crosses to the main process.
    if (typeof method !== 'string' || !/^[a-z]+\.[A-Za-z]+$/.test(method)) return refused(`stepwise.invoke: ${JSON.stringify(method)} is not a host method name`);
    if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) return refused('stepwise.invoke: params must be an object');
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, params ?? {}) as Promise<Outcome>;
  },
  onPush(cb) {
    if (typeof cb !== 'function') throw new TypeError('stepwise.onPush: expected a function');
    // The IPC event (with its sender) never reaches the page: only the push payload does.
    // The renderer checks each push against the contract (renderer/src/host/checked.ts).
    const listener = (_event: IpcRendererEvent, push: HostPush) => cb(push);
    ipcRenderer.on(PUSH_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(PUSH_CHANNEL, listener);
    };
  },
};

contextBridge.exposeInMainWorld('stepwise', api);
