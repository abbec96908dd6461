/**
 * Stand-ins for Electron's `utilityProcess.fork` and `MessageChannelMain` (the Electron binary
 * cannot run here), built on `child_process.fork` with the surface the desktop shell uses:
 *
 * - the process: `pid`, `stdout`/`stderr` (stdio 'pipe'), `postMessage(msg, transfer?)`,
 *   `on('spawn')`, `on('message', msg)`, `on('exit', code)` (a code only, as Electron reports
 *   it) and `kill()` (SIGTERM). The child gets a `process.parentPort`-like object
 *   (parent-port-shim.mjs), so shared/process-port.node.ts runs unchanged on its Electron path.
 * - the channel: two entangled `MessagePortMain`-like ends. An end transferred to a child
 *   arrives there in the message event's `ports` (a MessagePortMain-like object: messages queue
 *   until `start()`, 'close' when the other end closes or its process dies). Electron connects
 *   the two children with a direct pipe; here the bytes pass through this test process, which
 *   routes them by port id — the code under test never sees that.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PortPair } from '../../../main/core/process/types';
import type { UtilityFork, UtilityForkOptions, UtilityProcessLike } from '../../../main/electron/utility-spawner';

const shim = pathToFileURL(path.join(import.meta.dirname, 'parent-port-shim.mjs')).href;

/** Every fork call, for assertions on the options the spawner passed. */
export const forkCalls: { modulePath: string; args: string[]; options: UtilityForkOptions }[] = [];

let nextPortId = 1;
const portsById = new Map<number, StandInPort>();

/** One end of a stand-in MessageChannelMain, seen from the main process. */
export class StandInPort extends EventEmitter {
  readonly id = nextPortId++;
  partner!: StandInPort;
  /** The child this end was transferred to, if any. */
  owner?: ChildProcess;
  closed = false;
  private started = false;
  private queue: unknown[] = [];

  constructor() {
    super();
    portsById.set(this.id, this);
  }

  postMessage(data: unknown): void {
    if (this.closed) return;
    deliver(this.partner, data);
  }

  start(): void {
    this.started = true;
    for (const data of this.queue.splice(0)) this.emit('message', { data, ports: [] });
  }

  close(): void {
    closePort(this);
  }

  /** A message for this end while it is still in the main process. */
  receive(data: unknown): void {
    if (this.started) this.emit('message', { data, ports: [] });
    else this.queue.push(data);
  }

  /** Messages that arrived before the end was transferred go with it. */
  takeQueue(): unknown[] {
    return this.queue.splice(0);
  }
}

function deliver(to: StandInPort, data: unknown): void {
  if (to.closed) return;
  if (!to.owner) to.receive(data);
  else if (to.owner.connected) to.owner.send({ __standin: 'port-message', id: to.id, data } as never, undefined, {}, () => {});
}

function closePort(port: StandInPort): void {
  if (port.closed) return;
  port.closed = true;
  portsById.delete(port.id);
  const other = port.partner;
  if (other.closed) return;
  if (!other.owner) other.emit('close');
  else if (other.owner.connected) other.owner.send({ __standin: 'port-close', id: other.id } as never, undefined, {}, () => {});
}

/** Stand-in for `new MessageChannelMain()`. */
export function standInMessageChannel(): PortPair & { port1: StandInPort; port2: StandInPort } {
  const port1 = new StandInPort();
  const port2 = new StandInPort();
  port1.partner = port2;
  port2.partner = port1;
  return { port1, port2 };
}

/** Counts what passed through stand-in channels (direct runner ↔ mcp-host traffic). */
export const channelTraffic = { messages: 0 };

export const standInFork: UtilityFork = (modulePath, args, options) => {
  forkCalls.push({ modulePath, args, options });
  if (options.stdio !== 'pipe') throw new Error('stand-in supports stdio: pipe only');
  const child = fork(modulePath, args, {
    execArgv: ['--import', shim, ...(options.execArgv ?? [])],
    env: options.env,
    cwd: options.cwd,
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const proc = new EventEmitter() as EventEmitter & UtilityProcessLike & { pid: number | undefined };
  let alive = true;
  Object.defineProperties(proc, {
    pid: { get: () => (alive ? child.pid : undefined) },
    stdout: { value: child.stdout },
    stderr: { value: child.stderr },
  });
  proc.postMessage = (message: unknown, transfer?: unknown[]) => {
    const ports = (transfer ?? []) as StandInPort[];
    // Like Electron's postMessage, a message to a process that is gone or just exiting is
    // dropped silently (its exit is reported separately), never an asynchronous EPIPE; ports
    // sent with it die, so their partners see 'close'.
    if (!child.connected) {
      for (const p of ports) if (p instanceof StandInPort) closePort(p);
      return;
    }
    if (!ports.length) {
      child.send(message as never, undefined, {}, () => {});
      return;
    }
    for (const p of ports) {
      if (!(p instanceof StandInPort) || p.closed || p.owner) throw new Error('DataCloneError: a port can be transferred once, and only while open');
      p.owner = child;
    }
    child.send({ __standin: 'transfer', data: message, ids: ports.map((p) => p.id) } as never, undefined, {}, () => {});
    for (const p of ports) for (const data of p.takeQueue()) deliver(p, data);
  };
  child.on('error', () => {});
  proc.kill = () => (alive ? child.kill('SIGTERM') : false);
  child.on('spawn', () => proc.emit('spawn'));
  child.on('message', (m: { __standin?: string; id?: number; data?: unknown }) => {
    if (m && typeof m === 'object' && m.__standin) {
      const port = portsById.get(m.id!);
      if (!port || port.owner !== child) return;
      if (m.__standin === 'port-post') {
        channelTraffic.messages++;
        deliver(port.partner, m.data);
      } else if (m.__standin === 'port-close') closePort(port);
      return;
    }
    proc.emit('message', m);
  });
  child.on('exit', (code, signal) => {
    alive = false;
    // The process's ends of every channel die with it; their partners see 'close'.
    for (const p of [...portsById.values()]) if (p.owner === child) closePort(p);
    proc.emit('exit', code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
  });
  return proc;
};
