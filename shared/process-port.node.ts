/**
 * How a child process (agent-runner, mcp-host) reaches the host. The run logic sees only
 * `Port`s (shared/protocol/runner.ts); this file adapts whichever transport the process has:
 *
 * - Node (`child_process.fork` with an IPC channel, `serialization: 'advanced'`): one channel
 *   carries both logical ports as `{ ch: 'run' | 'mcp' | 'template', msg }` frames; under Node ports
 *   cannot cross processes, so the host relays the `mcp` channel to the mcp-host.
 * - Electron (`utilityProcess.fork`): `process.parentPort` delivers the same frames; a frame
 *   may also carry transferred MessagePorts in the event's `ports`, which is how the desktop
 *   shell hands a runner and the mcp-host the two ends of a direct channel (`onTransfer`,
 *   `transferredPort`; see shared/protocol/mcp.ts, McpTransportMode `port`).
 *
 * It lives in shared/ because both children use it; it is Node-only (it reads `process`).
 * Import it as `…/process-port.node.js`: a specifier ending in `.node` is taken for a native
 * addon by Node (and tsx, running the children from sources), while every tool maps `.js` to
 * this `.ts` file.
 */
import type { Port } from './protocol/runner';

/** A logical channel name on the process link (`template`: a template worker process, docs/architecture.md#templates). */
export type Channel = 'run' | 'mcp' | 'template';

export interface ChannelFrame {
  ch: Channel;
  msg: unknown;
}

interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown; ports?: TransferredPort[] }) => void): void;
}

/**
 * A port transferred to this process, as a utility process receives it: Electron's
 * `MessagePortMain` (https://www.electronjs.org/docs/latest/api/message-port-main). Messages
 * queue until `start()`; 'close' fires when the other end is closed or its process is gone.
 */
export interface TransferredPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  start(): void;
  close(): void;
}

/** A Port over a transferred MessagePort, which can also report and cause its closing. */
export interface ClosablePort<In, Out> extends Port<In, Out> {
  /** `listener` runs once, when the other end closes (or its process dies) or `close()` is called. */
  onClose(listener: () => void): void;
  close(): void;
}

type Sender = (frame: ChannelFrame) => void;
type Subscriber = (listener: (frame: ChannelFrame, ports: TransferredPort[]) => void) => void;

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
      process.on('message', (m: unknown) => listener(m as ChannelFrame, []));
    },
  };
}

function electronLink(): { send: Sender; subscribe: Subscriber } | undefined {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (!parentPort) return undefined;
  return {
    send: (frame) => parentPort.postMessage(frame),
    subscribe: (listener) => parentPort.on('message', (e) => listener(e.data as ChannelFrame, e.ports ?? [])),
  };
}

let link: { send: Sender; subscribe: Subscriber } | undefined;
const listeners = new Map<Channel, Set<(msg: unknown) => void>>();
const transferListeners = new Map<Channel, Set<(msg: unknown, ports: TransferredPort[]) => void>>();

function ensureLink(): { send: Sender; subscribe: Subscriber } {
  if (link) return link;
  link = electronLink() ?? nodeLink();
  if (!link) throw new Error('No host link: start this process with child_process.fork or utilityProcess.fork.');
  link.subscribe((frame, ports) => {
    if (!frame || typeof frame !== 'object') return;
    if (ports.length) {
      const takers = transferListeners.get(frame.ch);
      if (takers?.size) for (const l of takers) l(frame.msg, ports);
      else for (const p of ports) p.close(); // nobody here takes ports: let the other end know
      return;
    }
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

/**
 * Frames on channel `ch` that carry transferred ports go to `listener` (and not to the
 * channel's ordinary listeners). Only the Electron link can carry ports.
 */
export function onTransfer(ch: Channel, listener: (msg: unknown, ports: TransferredPort[]) => void): () => void {
  ensureLink();
  let set = transferListeners.get(ch);
  if (!set) transferListeners.set(ch, (set = new Set()));
  set.add(listener);
  return () => set!.delete(listener);
}

/** Wraps a transferred MessagePort as a Port and starts it (messages queued so far are delivered). */
export function transferredPort<In, Out>(port: TransferredPort): ClosablePort<In, Out> {
  const messageListeners = new Set<(msg: In) => void>();
  const closeListeners: (() => void)[] = [];
  let closed = false;
  const markClosed = () => {
    if (closed) return;
    closed = true;
    for (const l of closeListeners.splice(0)) l();
  };
  port.on('message', (e) => {
    for (const l of messageListeners) l(e.data as In);
  });
  port.on('close', markClosed);
  port.start();
  return {
    post: (msg: Out) => {
      if (closed) return;
      try {
        port.postMessage(msg);
      } catch {
        markClosed();
      }
    },
    onMessage: (listener) => {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    onClose: (listener) => {
      if (closed) queueMicrotask(listener);
      else closeListeners.push(listener);
    },
    close: () => {
      if (closed) return;
      try {
        port.close();
      } catch {
        // already closed
      }
      markClosed();
    },
  };
}

/**
 * Calls `listener` once when the host at the other end of the link is gone (it exited,
 * crashed or was killed with SIGKILL), so the process can stop its work and exit instead of
 * running on, reparented to PID 1.
 *
 * - Node (`child_process.fork`): the IPC channel closes when the parent dies, and Node emits
 *   'disconnect' on `process`. Registered whatever the link, as it costs nothing without an
 *   IPC channel (and test stand-ins of the Electron link run over one).
 * - Electron (`utilityProcess.fork`): `process.parentPort` emits only 'message'
 *   (https://www.electronjs.org/docs/latest/api/parent-port); there is no 'close' or
 *   'disconnect' event to hook. A utility process is a Chromium child process, which ends
 *   itself when its connection to the main (browser) process breaks, so it does not outlive
 *   its host; but no JavaScript runs first, so `listener` is not called on that path.
 */
export function onHostGone(listener: () => void): void {
  process.once('disconnect', listener);
}

/** Resolves when every frame sent so far has been handed to the OS (before a clean exit). */
export function flushLink(): Promise<void> {
  if (inFlight === 0) return new Promise((r) => setImmediate(r));
  return new Promise((r) => drained.push(r));
}
