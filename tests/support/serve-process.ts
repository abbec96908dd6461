/**
 * `stepwise serve` as a real process (bin/stepwise.mjs, its own process group), on a given
 * home, with a WebSocket client connected the way a page connects.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { connectWs, type WsClient } from './ws-client';
import { bundledRunner } from './runner-bundle';

export interface ServeProcess {
  client: WsClient;
  pid: number;
  /** Still running. */
  alive(): boolean;
  /** Everything it printed so far, stdout and stderr. */
  out(): string;
  /** SIGTERM to its group; resolves once it closed. */
  stop(): Promise<void>;
}

/** Starts `stepwise serve --no-open --no-seed --home <home>` and connects a client. */
export async function startServe(home: string): Promise<ServeProcess> {
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, [path.join(root, 'bin/stepwise.mjs'), 'serve', '--no-open', '--no-seed', '--home', home], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    // The bundled runner lives outside out/main, so it is told where the template worker's source is.
    env: { ...process.env, CI: '1', STEPWISE_RUNNER_ENTRY: bundledRunner(), STEPWISE_TEMPLATE_WORKER_ENTRY: path.join(root, 'shared/template/worker.node.ts') },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (alive()) process.kill(-child.pid!, 'SIGTERM');
    await closed;
  };
  const deadline = Date.now() + 60_000;
  let url: URL | undefined;
  while (!url) {
    const m = /running at (http:\/\/\S+)/.exec(out);
    if (m) url = new URL(m[1]);
    else if (!alive() || Date.now() > deadline) {
      await stop();
      throw new Error(`stepwise serve did not start:\n${out}`);
    } else await new Promise((r) => setTimeout(r, 50));
  }
  const client = await connectWs(url.origin, url.searchParams.get('token')!);
  return {
    client,
    pid: child.pid!,
    alive,
    out: () => out,
    stop: async () => {
      client.close();
      await stop();
    },
  };
}
