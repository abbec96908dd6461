/**
 * A stand-in for Electron's `utilityProcess.fork` (the Electron binary cannot run here), built
 * on `child_process.fork` with the same surface the desktop shell's UtilityProcessSpawner uses:
 * `pid`, `stdout`/`stderr` (stdio 'pipe'), `postMessage(msg)`, `on('spawn')`, `on('message',
 * msg)`, `on('exit', code)` (a code only, as Electron reports it) and `kill()` (SIGTERM). The
 * child gets a `process.parentPort`-like object (parent-port-shim.mjs), so the child code in
 * agent-runner/process-port.ts runs unchanged on its Electron path.
 */
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UtilityFork, UtilityForkOptions, UtilityProcessLike } from '../../../main/electron/utility-spawner';

const shim = pathToFileURL(path.join(import.meta.dirname, 'parent-port-shim.mjs')).href;

/** Every fork call, for assertions on the options the spawner passed. */
export const forkCalls: { modulePath: string; args: string[]; options: UtilityForkOptions }[] = [];

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
  proc.postMessage = (message: unknown) => {
    if (!child.connected) throw new Error('utility process is gone');
    // Like Electron's postMessage, a message to a process that is just exiting is dropped
    // (its exit is reported separately), never an asynchronous EPIPE.
    child.send(message as never, undefined, {}, () => {});
  };
  child.on('error', () => {});
  proc.kill = () => (alive ? child.kill('SIGTERM') : false);
  child.on('spawn', () => proc.emit('spawn'));
  child.on('message', (m) => proc.emit('message', m));
  child.on('exit', (code, signal) => {
    alive = false;
    proc.emit('exit', code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
  });
  return proc;
};
