/**
 * Test side of tests/support/web-host-child.ts: start a web host in a child process on a
 * fresh home, send it raw bytes over a `net.Socket` (so targets no HTTP client would send
 * really reach it), and tell whether it is still alive.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HostProcess {
  port: number;
  token: string;
  home: string;
  proc: ChildProcess;
  /** Everything it wrote to stderr (its log lines) so far. */
  log(): string;
  /** Still running (no exit, no signal). */
  alive(): boolean;
  stop(): Promise<void>;
}

/** Start the web host in a child process; `bind` is the address, `env` extra environment. */
export async function startHostProcess(o: { token?: string; bind?: string; seed?: boolean; env?: Record<string, string> } = {}): Promise<HostProcess> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-webproc-'));
  fs.mkdirSync(path.join(home, 'workspace'));
  const token = o.token ?? 'test_token_0123456789';
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'tests/support/web-host-child.ts')], {
    cwd: root,
    env: {
      ...process.env,
      STEPWISE_HOME: home,
      STEPWISE_TEST_TOKEN: token,
      STEPWISE_TEST_BIND: o.bind ?? '',
      STEPWISE_TEST_SEED: o.seed ? '1' : '',
      ...o.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the web host child did not start in 30 s:\n${err}`)), 30_000);
    proc.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the web host child exited ${code}:\n${err}`));
    });
  });
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  return {
    port,
    token,
    home,
    proc,
    log: () => err,
    alive,
    stop: async () => {
      if (alive()) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      }
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface RawAnswer {
  /** The status code of the first response line, or undefined when the server closed without one. */
  status?: number;
  /** All bytes received, as text. */
  text: string;
}

/**
 * Send `request` (raw HTTP bytes) to 127.0.0.1:`port` and collect the answer until the server
 * closes, or `idleMs` pass with nothing new after a complete head (keep-alive).
 */
export function rawRequest(port: number, request: string | Buffer, idleMs = 300): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : undefined, text });
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(done, text.includes('\r\n\r\n') ? idleMs : 10_000);
    };
    socket.on('data', (d) => {
      text += d.toString('latin1');
      arm();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(request);
    arm();
  });
}

/** A GET of `target` (sent as is) with `headers`, on a fresh connection that asks to be closed. */
export function rawGet(port: number, target: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const all: Record<string, string> = { Host: `127.0.0.1:${port}`, Connection: 'close', ...headers };
  const lines = [`GET ${target} HTTP/1.1`, ...Object.entries(all).map(([k, v]) => `${k}: ${v}`)];
  return rawRequest(port, `${lines.join('\r\n')}\r\n\r\n`);
}

/** A WebSocket upgrade request of `target` (sent as is) with `headers`. */
export function rawUpgrade(port: number, target: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawGet(port, target, {
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    Origin: `http://127.0.0.1:${port}`,
    ...headers,
  });
}
