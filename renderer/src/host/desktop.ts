/** Desktop adapter: wraps the preload API (`window.stepwise`) of the Electron shell. */
import type { HostMethod, HostParams, HostResult, HostPush } from '../../../shared/protocol/host-api';
import { HostError, type HostServices } from './types';
import { PushHub, pushIterable } from './push-queue';
import { AckBatcher, nextFrame } from './frame';

/** What the preload script exposes through contextBridge. */
export interface StepwisePreloadApi {
  invoke(method: string, params: unknown): Promise<unknown>;
  /** Register for pushes; returns the unsubscribe function. */
  onPush(cb: (push: HostPush) => void): () => void;
}

function toHostError(err: unknown, method: string): HostError {
  if (err instanceof HostError) return err;
  const e = err as { message?: string; code?: string; stack?: string };
  // Electron prefixes rejected IPC errors with "Error invoking remote method '…': ".
  const message = String(e?.message ?? err).replace(/^Error invoking remote method '[^']*': (?:Error: )?/, '');
  const coded = /^\[([a-z_]+)\] (.*)$/s.exec(message);
  return coded ? new HostError(coded[2], coded[1], method, e?.stack) : new HostError(message, e?.code, method, e?.stack);
}

/** Adapter over `window.stepwise`; acknowledges processed pushes once per frame like the web host. */
export function createDesktopHost(api: StepwisePreloadApi): HostServices {
  const hub = new PushHub<HostPush>();
  const ack = new AckBatcher((count) => {
    api.invoke('stream.ack', { count }).catch(() => {});
  }, nextFrame);
  api.onPush((push) => {
    hub.emit(push);
    ack.processed();
  });
  return {
    presentational: false,
    async call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>> {
      try {
        return (await api.invoke(method, params)) as HostResult<M>;
      } catch (err) {
        throw toHostError(err, method);
      }
    },
    pushes: (signal) => pushIterable(hub.subscribe, signal),
  };
}
