/** Desktop adapter: wraps the preload API (`window.stepwise`) of the Electron shell. */
import type { HostMethod, HostParams, HostResult, HostPush } from '../../../shared/protocol/host-api';
import { OutcomeSchema, fromWire, type Outcome } from '../../../shared/protocol/contract/errors';
import { matches } from '../../../shared/protocol/contract/define';
import { HostCallError, type HostServices } from './types';
import { PushHub, pushIterable } from './push-queue';
import { AckBatcher, nextFrame } from './frame';
import { withChecks } from './checked';

/** What the preload script exposes through contextBridge (preload/index.ts). */
export interface StepwisePreloadApi {
  /** Resolves with the request's outcome (main/electron/ipc.ts never rejects). */
  invoke(method: string, params: unknown): Promise<Outcome>;
  /** Register for pushes; returns the unsubscribe function. */
  onPush(cb: (push: HostPush) => void): () => void;
}

/** The result of an outcome, or its error as a HostCallError. */
function decode(outcome: unknown, method: string): unknown {
  if (!matches(OutcomeSchema, outcome)) {
    const shape = outcome && typeof outcome === 'object' && 'ok' in outcome ? 'an outcome with a malformed error' : 'something that is not an outcome';
    throw new HostCallError(`${method}: the host answered with ${shape}`, 'bad_response', method);
  }
  if (outcome.ok) return outcome.result;
  const e = fromWire(outcome.error);
  throw new HostCallError(e.message, e.code, method);
}

/** The invoke itself failed (no handler registered, the main process gone): Electron's own error. */
function invokeFailed(err: unknown, method: string): HostCallError {
  const e = err as { message?: unknown; stack?: string };
  // Electron prefixes rejected IPC errors with "Error invoking remote method '…': ".
  const message = String(e?.message ?? err).replace(/^Error invoking remote method '[^']*': (?:Error: )?/, '');
  return new HostCallError(message, 'internal', method, e?.stack);
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
  return withChecks({
    presentational: false,
    async call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>> {
      let outcome: unknown;
      try {
        outcome = await api.invoke(method, params);
      } catch (err) {
        throw invokeFailed(err, method);
      }
      return decode(outcome, method) as HostResult<M>;
    },
    pushes: (signal) => pushIterable(hub.subscribe, signal),
  });
}
