/**
 * A FIFO, a Unix socket or a device file in the workspace (or given to the CLI) is never opened:
 * the workspace tree lists one named like a thread with why it is skipped, `thread.open` and the
 * dataset calls refuse it naming the path, and `stepwise validate` / `import` / `eval --dataset`
 * exit 2 naming it. Before, a FIFO named `x.json` held `thread.open` (and `validate`) forever:
 * opening a FIFO waits for a writer. Real `mkfifo`, a real socket (`net.createServer` listening
 * on a path), real symbolic links to /dev/zero and /dev/urandom, the real host core and CLI.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedThread, userMessage } from '../../support/threads';
import { hostCores, makeHome, rejection, RecordingClient, writeThread } from '../../support/host-harness';
import { cleanups } from '../../support/cleanups';

const startCore = hostCores();
const defer = cleanups('test');

/** Resolves with what `p` gave, or 'hung' when it took longer than `ms`. */
const within = <T>(p: Promise<T>, ms = 10_000): Promise<T | 'hung'> => Promise.race([p, new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms).unref())]);

/** A home whose workspace holds a thread, a FIFO, a socket and links to devices, named like threads and datasets. */
async function specialHome(): Promise<string> {
  const home = makeHome();
  writeThread(home, 'ok.json', scriptedThread([], { messages: [userMessage('hi', 'u1')], title: 'ok' }));
  const ws = path.join(home, 'workspace');
  execFileSync('mkfifo', [path.join(ws, 'pipe.json')]);
  execFileSync('mkfifo', [path.join(ws, 'pipe.dataset.json')]);
  fs.symlinkSync('/dev/urandom', path.join(ws, 'random.dataset.json'));
  fs.symlinkSync('/dev/zero', path.join(ws, 'zero.json'));
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(path.join(ws, 'sock.json'), () => r()));
  defer(() => new Promise((r) => server.close(r)));
  return home;
}

/** `stepwise <args>` from sources, killed after 30 s (a hang fails the test instead of holding it). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../../main/cli/index.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const FIFO = 'it is a FIFO (named pipe), not a regular file: it is skipped, never opened';
const SOCKET = 'it is a socket, not a regular file: it is skipped, never opened';
const DEVICE = 'it is a character device, not a regular file: it is skipped, never opened';

describe('special files in the workspace', () => {
  it('the tree lists them with a note, thread.open and the dataset calls refuse them naming the path, the rest works', async () => {
    const home = await specialHome();
    const core = await startCore({ home });
    const conn = core.connect(new RecordingClient().send);
    const list = await within(conn.request('workspace.list', {}) as Promise<{ path: string; error?: string }[]>);
    expect(list).not.toBe('hung');
    // The link to /dev/zero leads out of the workspace: not listed, as every such link.
    expect((list as { path: string; error?: string }[]).map((e) => [e.path, e.error])).toEqual([
      ['ok.json', undefined],
      ['pipe.json', `pipe.json: ${FIFO}`],
      ['sock.json', `sock.json: ${SOCKET}`],
    ]);
    for (const [p, why] of [['pipe.json', FIFO], ['sock.json', SOCKET]]) {
      const err = await within(rejection(conn.request('thread.open', { path: p })));
      expect(err).not.toBe('hung');
      expect((err as Error).message).toContain(p);
      expect((err as Error).message).toContain(why);
    }
    const zero = await within(rejection(conn.request('thread.open', { path: 'zero.json' })));
    expect((zero as Error).message).toMatch(/zero\.json/);
    const datasets = await within(conn.request('eval.datasets', {}) as Promise<{ path: string; error?: string }[]>);
    expect((datasets as { path: string; error?: string }[]).map((d) => [d.path, d.error])).toEqual([
      ['pipe.dataset.json', FIFO],
      ['random.dataset.json', DEVICE],
    ]);
    const dataset = await within(rejection(conn.request('eval.readDataset', { path: 'pipe.dataset.json' })));
    expect((dataset as Error).message).toBe(`pipe.dataset.json: ${FIFO}`);
    const opened = (await conn.request('thread.open', { path: 'ok.json' })) as { thread: { title: string } };
    expect(opened.thread.title).toBe('ok');
  }, 60_000);

  it('stepwise validate, import and eval --dataset exit 2 naming the file, never reading it', async () => {
    const home = await specialHome();
    const ws = path.join(home, 'workspace');
    const at = (n: string) => path.join(ws, n);
    for (const [n, why] of [['pipe.json', FIFO], ['sock.json', SOCKET], ['zero.json', DEVICE]]) {
      expect(await cli(['validate', at(n)])).toEqual({ code: 2, stdout: '', stderr: `${at(n)}: ${why}\n` });
      expect(await cli(['import', at(n)])).toEqual({ code: 2, stdout: '', stderr: `stepwise import: cannot read ${at(n)}: ${why}\n` });
    }
    const ev = await cli(['eval', at('ok.json'), '--dataset', at('random.dataset.json'), '--home', home]);
    expect(ev.code).toBe(2);
    expect(ev.stderr).toContain(`${at('random.dataset.json')}: cannot read the dataset: ${DEVICE}`);
  }, 240_000);
});
