/**
 * `node bin/stepwise.mjs serve` as a user starts it, in a process group of its own so a test can
 * SIGKILL the whole group (the wrapper, the CLI, its runners and mcp-host) as a crash would.
 * Resolves once it prints its URL; the token is read from that URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './host-harness';
import { connectWs, type WsClient } from './ws-client';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A running `stepwise serve`. */
export interface ServeProcess {
  proc: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  token: string;
  /** A new WebSocket client of it. */
  connect(): Promise<WsClient>;
  /** SIGKILL to the whole process group, at once; resolves when the wrapper is gone. */
  killGroup(): Promise<void>;
  /** Everything it wrote to stderr so far. */
  log(): string;
}

/** Start `stepwise serve --home <home>` (no browser, no example threads). */
export async function startServe(home: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [path.join(root, 'bin/stepwise.mjs'), 'serve', '--port', '0', '--no-open', '--no-seed', '--home', home], {
    cwd: root,
    env: { ...process.env, CI: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = await waitFor(
    () => {
      if (proc.exitCode !== null) throw new Error(`stepwise serve exited ${proc.exitCode}:\n${err}`);
      return /running at (\S+)/.exec(out)?.[1];
    },
    60_000,
    'stepwise serve to print its URL',
  );
  const u = new URL(url);
  const token = u.searchParams.get('token') ?? new URLSearchParams(u.hash.slice(1)).get('token') ?? '';
  return {
    proc,
    origin: u.origin,
    token,
    connect: () => connectWs(u.origin, token),
    killGroup: async () => {
      if (proc.exitCode === null && proc.signalCode === null) process.kill(-proc.pid!, 'SIGKILL');
      await exited;
    },
    log: () => err,
  };
}
