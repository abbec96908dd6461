/**
 * An acknowledged edit survives a crash of the host: a real web host in its own process
 * (tests/support/web-host-child.ts) is sent `thread.edit` over its WebSocket, killed with
 * SIGKILL as soon as the acknowledgement arrives (long before the ~300 ms debounced save), and
 * started again on the same home. The edits must be on disk at the moment of the kill (in the
 * thread file or its edit log), in the thread file after the restart, and in what a client
 * sees when it opens the thread — also after a rename, for several threads, and without
 * applying twice an edit resent with its editId.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, userMessage } from '../../support/threads';
import { makeHome, readThread, waitFor, writeThread } from '../../support/host-harness';
import { connectWs, type WsClient } from '../../support/ws-client';

const TOKEN = 'edit-crash-token';
const children: ChildProcess[] = [];
const clients: WsClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/**
 * Start a web host process on `home`; resolves with a connected client once it listens.
 * `saveDebounceMs`: how long after an edit threads are saved (default the host's).
 */
async function startHost(home: string, saveDebounceMs?: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../support/web-host-child.ts')], {
    env: { ...process.env, STEPWISE_HOME: home, STEPWISE_TEST_TOKEN: TOKEN, ...(saveDebounceMs !== undefined ? { STEPWISE_TEST_SAVE_DEBOUNCE_MS: String(saveDebounceMs) } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const info = await waitFor(() => (out.includes('\n') ? (JSON.parse(out.split('\n')[0]) as { port: number }) : undefined), 30_000, 'the host process to listen');
  const client = await connectWs(`http://127.0.0.1:${info.port}`, TOKEN);
  clients.push(client);
  return {
    client,
    /** SIGKILL, at once (call it synchronously after an acknowledgement). */
    kill: () => {
      child.kill('SIGKILL');
      return exited;
    },
  };
}

type Opened = { thread: Thread; version: number; path: string };

/** Everything on disk that holds `text`: the thread file, or an edit log in `$home/edits`. */
function onDisk(home: string, rel: string, text: string): boolean {
  if (fs.readFileSync(path.join(home, 'workspace', rel), 'utf8').includes(text)) return true;
  const dir = path.join(home, 'edits');
  return fs.existsSync(dir) && fs.readdirSync(dir).some((n) => n.endsWith('.jsonl') && fs.readFileSync(path.join(dir, n), 'utf8').includes(text));
}

/** Type `text` into the system prompt one key per edit, each sent after the previous one was acknowledged. */
async function type(client: WsClient, threadId: string, from: number, before: string, text: string): Promise<number> {
  let version = from;
  for (let i = 1; i <= text.length; i++) {
    const r = await client.call<{ version: number }>('thread.edit', {
      threadId,
      baseVersion: version,
      patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: before + text.slice(0, i) }],
      editId: `${threadId}-${before}${text.slice(0, i)}`,
    });
    version = r.version;
  }
  return version;
}

describe('edits acknowledged before a crash', () => {
  it('are on disk when acknowledged, in the file after a restart, and shown to a client that opens the thread', async () => {
    const home = makeHome();
    const thread = scriptedThread([{ text: 'hi' }], { title: 'draft' });
    writeThread(home, 'draft.json', thread);

    const first = await startHost(home);
    const opened = await first.client.call<Opened>('thread.open', { path: 'draft.json' });
    const version = await type(first.client, thread.id, opened.version, '', 'Answer in French');
    await first.kill(); // right after the last acknowledgement, well inside the save debounce

    expect(version).toBe(16);
    expect(onDisk(home, 'draft.json', 'Answer in French')).toBe(true);

    const second = await startHost(home);
    expect(readThread(home, 'draft.json').context.systemPrompt).toBe('Answer in French');
    const reopened = await second.client.call<Opened>('thread.open', { path: 'draft.json' });
    expect(reopened.thread.context.systemPrompt).toBe('Answer in French');
    expect(fs.readdirSync(path.join(home, 'edits')).filter((n) => n.endsWith('.jsonl'))).toEqual([]);
  }, 90_000);

  it('covers several threads, a rename acknowledged just before the crash, and a resent edit (answered, not applied twice)', async () => {
    const home = makeHome();
    const a = scriptedThread([{ text: 'hi' }], { title: 'alpha', messages: [userMessage('one'), userMessage('two')] });
    const b = scriptedThread([{ text: 'hi' }], { title: 'beta' });
    writeThread(home, 'alpha.json', a);
    writeThread(home, 'beta.json', b);

    // No save before the crash, however slow the machine: the edits are in the logs only (a save
    // ends a log, and with it the ids a resend is known by; the resend is then refused as stale).
    const first = await startHost(home, 60_000);
    const oa = await first.client.call<Opened>('thread.open', { path: 'alpha.json' });
    const ob = await first.client.call<Opened>('thread.open', { path: 'beta.json' });
    const va = await type(first.client, a.id, oa.version, '', 'typed');
    const removed = await first.client.call<{ version: number }>('thread.edit', {
      threadId: a.id,
      baseVersion: va,
      patches: [{ op: 'remove', path: ['context', 'messages', 0] }],
      editId: 'remove-first-message',
    });
    await type(first.client, b.id, ob.version, '', 'beta typed');
    const entry = await first.client.call<{ path: string }>('workspace.rename', { path: 'alpha.json', title: 'Alpha renamed' });
    await first.kill();

    expect(entry.path).toBe('Alpha renamed.json');
    const second = await startHost(home);
    const ra = await second.client.call<Opened>('thread.open', { path: 'Alpha renamed.json' });
    expect(ra.thread.title).toBe('Alpha renamed');
    expect(ra.thread.context.systemPrompt).toBe('typed');
    expect(ra.thread.context.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(['two']);
    expect(readThread(home, 'Alpha renamed.json').context.systemPrompt).toBe('typed');
    expect(fs.existsSync(path.join(home, 'workspace', 'alpha.json'))).toBe(false);
    const rb = await second.client.call<Opened>('thread.open', { path: 'beta.json' });
    expect(rb.thread.context.systemPrompt).toBe('beta typed');

    // The page that sent the removal never got its answer (say), and sends it again: answered, not applied twice.
    const again = await second.client.call<{ version: number }>('thread.edit', {
      threadId: a.id,
      baseVersion: removed.version - 1,
      patches: [{ op: 'remove', path: ['context', 'messages', 0] }],
      editId: 'remove-first-message',
    });
    expect(again).toEqual({ version: 0 });
    const now = await second.client.call<Opened>('thread.open', { path: 'Alpha renamed.json' });
    expect(now.thread.context.messages).toHaveLength(1);
  }, 90_000);
});
