// Stand-in for Electron's utility process environment (the Electron binary cannot run here):
// loaded with --import into a child_process.fork child, it gives the child a
// `process.parentPort` with the surface agent-runner/process-port.ts uses — postMessage(msg)
// and on('message', (e: { data, ports }) => …) — carried over the Node IPC channel. Like
// Electron's parentPort, messages that arrive before the first 'message' listener is attached
// are queued and delivered to it (Electron starts the port when that listener is added).
const listeners = new Set();
const queued = [];
process.on('message', (data) => {
  if (listeners.size === 0) queued.push(data);
  else for (const l of listeners) l({ data, ports: [] });
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
        for (const data of pending) for (const l of listeners) l({ data, ports: [] });
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
