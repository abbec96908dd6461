// Stand-in for Electron's utility process environment (the Electron binary cannot run here):
// loaded with --import into a child_process.fork child, it gives the child a
// `process.parentPort` with the surface shared/process-port.node.ts uses — postMessage(msg)
// and on('message', (e: { data, ports }) => …) — carried over the Node IPC channel. Like
// Electron's parentPort, messages that arrive before the first 'message' listener is attached
// are queued and delivered to it (Electron starts the port when that listener is added).
// Ports transferred by utility-standin.ts arrive in `ports` as MessagePortMain-like objects:
// postMessage(msg), on('message', (e: { data }) => …), on('close', …), start(), close().
import { EventEmitter } from 'node:events';

const listeners = new Set();
const queued = [];
/** id → this process's end of a stand-in channel. */
const ports = new Map();

class ChildPort extends EventEmitter {
  constructor(id) {
    super();
    this.id = id;
    this.started = false;
    this.closed = false;
    this.queue = [];
  }
  postMessage(data) {
    if (this.closed) return;
    process.send({ __standin: 'port-post', id: this.id, data });
  }
  start() {
    this.started = true;
    for (const data of this.queue.splice(0)) this.emit('message', { data, ports: [] });
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    ports.delete(this.id);
    if (process.connected) process.send({ __standin: 'port-close', id: this.id });
  }
  receive(data) {
    if (this.closed) return;
    if (this.started) this.emit('message', { data, ports: [] });
    else this.queue.push(data);
  }
  remoteClosed() {
    if (this.closed) return;
    this.closed = true;
    ports.delete(this.id);
    this.emit('close');
  }
}

function dispatch(event) {
  if (listeners.size === 0) queued.push(event);
  else for (const l of listeners) l(event);
}

process.on('message', (m) => {
  if (m && typeof m === 'object' && m.__standin) {
    if (m.__standin === 'transfer') {
      const transferred = m.ids.map((id) => {
        const p = new ChildPort(id);
        ports.set(id, p);
        return p;
      });
      dispatch({ data: m.data, ports: transferred });
    } else if (m.__standin === 'port-message') ports.get(m.id)?.receive(m.data);
    else if (m.__standin === 'port-close') ports.get(m.id)?.remoteClosed();
    return;
  }
  dispatch({ data: m, ports: [] });
});
const parentPort = {
  postMessage(message) {
    process.send(message);
  },
  on(event, listener) {
    if (event !== 'message') return parentPort;
    listeners.add(listener);
    if (listeners.size === 1 && queued.length) {
      const pending = queued.splice(0);
      queueMicrotask(() => {
        for (const e of pending) for (const l of listeners) l(e);
      });
    }
    return parentPort;
  },
  off(event, listener) {
    if (event === 'message') listeners.delete(listener);
    return parentPort;
  },
  start() {},
};
Object.defineProperty(process, 'parentPort', { value: parentPort, enumerable: false });
