/**
 * Playwright fixtures: a real `stepwise serve` process on a fresh home (seeded with the
 * examples and the `everything` MCP server), and a page opened on its URL with the token.
 * The page moves the token to the tab's sessionStorage and out of its URL (no cookie): a
 * reload keeps the session, and each new page must be opened on `serve.url`.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServeProcess {
  url: string;
  origin: string;
  token: string;
  home: string;
  proc: ChildProcess;
  output: () => string;
  /** PIDs of live agent-runner processes of this host (its process group only). */
  runnerPids(): number[];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Start `stepwise serve` on `home` (a fresh one by default); `opts.port` fixes the port (a restart on the same address). */
export async function startServe(home?: string, env: Record<string, string> = {}, opts: { port?: number } = {}): Promise<ServeProcess> {
  const dir = home ?? mkdtempSync(path.join(os.tmpdir(), 'stepwise-e2e-'));
  const proc = spawn(process.execPath, [path.join(root, 'bin/stepwise.mjs'), 'serve', '--no-open', '--port', String(opts.port ?? 0), '--home', dir], {
    cwd: root,
    env: { ...process.env, CI: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stopping it stops the host and every child it started.
    detached: true,
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stepwise serve did not print its URL in 60 s:\n${out}`)), 60_000);
    const check = () => {
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', check);
    proc.on('exit', (code) => reject(new Error(`stepwise serve exited ${code}:\n${out}`)));
  });
  const u = new URL(url);
  return {
    url,
    origin: u.origin,
    token: u.searchParams.get('token')!,
    home: dir,
    proc,
    output: () => out,
    runnerPids: () => {
      try {
        return execFileSync('pgrep', ['-g', String(proc.pid), '-f', 'agent-runner/index.ts|agent-runner.js'], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean)
          .map(Number);
      } catch {
        return [];
      }
    },
  };
}

/** Signal the serve process's whole group (host, runners, mcp-host, MCP servers). */
function signalGroup(s: ServeProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-s.proc.pid!, sig);
  } catch {
    // already gone
  }
}

/** Stop the serve process and everything it started; its home is removed unless `keepHome`. */
export async function stopServe(s: ServeProcess, opts: { keepHome?: boolean } = {}): Promise<void> {
  if (s.proc.exitCode === null) {
    signalGroup(s, 'SIGTERM');
    await new Promise((r) => {
      const t = setTimeout(() => {
        signalGroup(s, 'SIGKILL');
        r(null);
      }, 5000);
      s.proc.on('exit', () => {
        clearTimeout(t);
        r(null);
      });
    });
  }
  // Anything left in the group (an MCP server that ignores SIGTERM) goes too.
  signalGroup(s, 'SIGKILL');
  if (!opts.keepHome) rmSync(s.home, { recursive: true, force: true });
}

/** A TCP port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Saves a screenshot as a test artifact (test-results/screens/<name>.png). */
export async function shot(page: Page, name: string): Promise<void> {
  // No tooltip over the picture (tooltips open on hover and on focus).
  await page.mouse.move(2, 2);
  await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: { blur?: () => void } | null } }).document;
    doc.activeElement?.blur?.();
  });
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', `${name}.png`), fullPage: false });
}

export const test = base.extend<{ serve: ServeProcess }>({
  // eslint-disable-next-line no-empty-pattern
  serve: async ({}, use) => {
    const s = await startServe();
    await use(s);
    await stopServe(s);
  },
});
export { expect };
