/**
 * How a child process (agent-runner, mcp-host) reaches the host. The run logic sees only
 * `Port`s (shared/protocol/runner.ts); this file adapts whichever transport the process has:
 *
 * - Node (`child_process.fork` with an IPC channel, `serialization: 'advanced'`): one channel
 *   carries both logical ports as `{ ch: 'run' | 'mcp', msg }` frames; under Node ports
 *   cannot cross processes, so the host relays the `mcp` channel to the mcp-host.
 * - Electron (`utilityProcess.fork`): `process.parentPort` delivers the same frames; the
 *   desktop shell may instead transfer MessagePorts in the first message's `ports`.
 */
import type { Port } from '../shared/protocol/runner';

/** A logical channel name on the process link. */
export type Channel = 'run' | 'mcp';

export interface ChannelFrame {
  ch: Channel;
  msg: unknown;
}

interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown; ports?: unknown[] }) => void): void;
}

type Sender = (frame: ChannelFrame) => void;
type Subscriber = (listener: (frame: ChannelFrame) => void) => void;

let inFlight = 0;
const drained: (() => void)[] = [];

function nodeLink(): { send: Sender; subscribe: Subscriber } | undefined {
  if (typeof process.send !== 'function') return undefined;
  return {
    send: (frame) => {
      if (!process.connected) return;
      try {
        inFlight++;
        process.send!(frame, undefined, {}, () => {
          inFlight--;
          if (inFlight === 0) for (const d of drained.splice(0)) d();
        });
      } catch {
        inFlight = Math.max(0, inFlight - 1);
        // The host is gone; nothing to tell.
      }
    },
    subscribe: (listener) => {
      process.on('message', (m: unknown) => listener(m as ChannelFrame));
    },
  };
}

function electronLink(): { send: Sender; subscribe: Subscriber } | undefined {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (!parentPort) return undefined;
  return {
    send: (frame) => parentPort.postMessage(frame),
    subscribe: (listener) => parentPort.on('message', (e) => listener(e.data as ChannelFrame)),
  };
}

let link: { send: Sender; subscribe: Subscriber } | undefined;
const listeners = new Map<Channel, Set<(msg: unknown) => void>>();

function ensureLink(): { send: Sender; subscribe: Subscriber } {
  if (link) return link;
  link = electronLink() ?? nodeLink();
  if (!link) throw new Error('No host link: start this process with child_process.fork or utilityProcess.fork.');
  link.subscribe((frame) => {
    if (!frame || typeof frame !== 'object') return;
    for (const l of listeners.get(frame.ch) ?? []) l(frame.msg);
  });
  return link;
}

/** The logical port `ch` on this process's link to the host. */
export function channelPort<In, Out>(ch: Channel): Port<In, Out> {
  const l = ensureLink();
  return {
    post: (msg: Out) => l.send({ ch, msg }),
    onMessage: (listener: (msg: In) => void) => {
      let set = listeners.get(ch);
      if (!set) listeners.set(ch, (set = new Set()));
      const fn = listener as (msg: unknown) => void;
      set.add(fn);
      return () => set!.delete(fn);
    },
  };
}

/** Resolves when every frame sent so far has been handed to the OS (before a clean exit). */
export function flushLink(): Promise<void> {
  if (inFlight === 0) return new Promise((r) => setImmediate(r));
  return new Promise((r) => drained.push(r));
}
