/**
 * `bin/stepwise.mjs serve` killed with SIGKILL to its whole process group and started again,
 * for tests of what survives a crash. The serve processes run under tests/support/serve-box.mjs,
 * which stands in for a container whose first process is `node`: on Linux it is the first
 * process (pid 1) of a new pid namespace (`unshare`, with a user namespace so no privilege is
 * needed), so a killed CLI is re-parented to it and stays a zombie, its pid still taken — as
 * under Docker without `--init`. Where `unshare` cannot make the namespaces the box runs as a
 * plain child (`reaps` true: the system reaps the killed CLI), and the test says so in its log.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { connectWs, type WsClient } from './ws-client';

const box = path.resolve(import.meta.dirname, 'serve-box.mjs');
const UNSHARE = ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc', '--kill-child'];

let unshareWorks: boolean | undefined;
function canUnshare(): boolean {
  unshareWorks ??= process.platform === 'linux' && spawnSync('unshare', [...UNSHARE, 'true'], { stdio: 'ignore' }).status === 0;
  return unshareWorks;
}

/** A running serve: its URL's origin and token, and a connected client. */
export interface Served {
  origin: string;
  token: string;
  client: WsClient;
}

/** The box: start serve, kill its process group, start it again. */
export interface ServeBox {
  /** True when killed processes are reaped by the system (no pid namespace could be made). */
  reaps: boolean;
  /** `bin/stepwise.mjs serve --no-open --home <home>`; resolves once it prints its URL and a client is connected. */
  serve(home: string): Promise<Served>;
  /** SIGKILL to the serve's whole process group; resolves with the zombies left (pids in the box) once its wrapper is gone. */
  kill(): Promise<number[]>;
  /**
   * Arms a kill of the serve's group for the moment `file` is replaced by another inode than
   * `ino` (the host's atomic write of it landed), then calls `act` (which makes the host write
   * it). Resolves with the zombies and whether the file was replaced (else the kill came after 30 s).
   */
  killWhenReplaced(file: string, ino: number, act: () => void): Promise<{ zombies: number[]; replaced: boolean }>;
  /** Everything serve printed so far (both streams, every start). */
  output(): string;
  close(): void;
}

/** Starts a box (see the module comment). */
export function startServeBox(): ServeBox {
  const reaps = !canUnshare();
  if (reaps) console.warn('serve-group: unshare cannot make a pid namespace here; killed processes are reaped by the system');
  const child: ChildProcess = reaps
    ? spawn(process.execPath, [box], { stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn('unshare', [...UNSHARE, process.execPath, box], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const answers: ((msg: Record<string, unknown>) => void)[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => answers.shift()?.(JSON.parse(line) as Record<string, unknown>));
  const ask = (cmd: object, what: string, ms: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve-group: no answer to ${what} in ${ms} ms; serve printed:\n${output}`)), ms);
      answers.push((msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      child.stdin!.write(`${JSON.stringify(cmd)}\n`);
    });
  const clients: WsClient[] = [];
  return {
    reaps,
    serve: async (home) => {
      const { url } = (await ask({ cmd: 'start', args: ['serve', '--no-open', '--home', home] }, 'serve starting', 60_000)) as { url: string };
      const u = new URL(url);
      const token = u.searchParams.get('token')!;
      const client = await connectWs(u.origin, token);
      clients.push(client);
      return { origin: u.origin, token, client };
    },
    kill: async () => {
      const r = await ask({ cmd: 'kill' }, 'the kill', 20_000);
      for (const c of clients.splice(0)) c.close();
      return r.zombies as number[];
    },
    killWhenReplaced: async (file, ino, act) => {
      const armed = ask({ cmd: 'killWhenReplaced', path: file, ino }, 'arming the kill', 20_000);
      const killed = new Promise<Record<string, unknown>>((resolve) => answers.push(resolve)); // the line after `armed`
      await armed;
      act();
      const r = await killed;
      for (const c of clients.splice(0)) c.close();
      return { zombies: r.zombies as number[], replaced: r.replaced === true };
    },
    output: () => output,
    close: () => {
      for (const c of clients.splice(0)) c.close();
      child.stdin!.end();
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    },
  };
}
