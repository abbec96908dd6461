/**
 * The host's Yjs document outlives a restart (docs/architecture.md#multi-window-editing, step 3),
 * over the real WebSocket of `bin/stepwise.mjs serve`: its state is saved beside the thread's
 * run files, tagged with a hash of the JSON, so a window that typed while the host was down
 * joins the restarted host's document (the same id) and its unsent edits merge through
 * `thread.sync`, beside what another window typed; a thread file changed while the host was down,
 * or a state file that is not one, makes the host rebuild the document from the JSON (a new id:
 * the window loads the thread again).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Thread } from '../../../shared/thread/schema';
import { findText } from '../../../shared/thread/y-thread';
import { makeHome, readThread, waitFor, writeThread } from '../../support/host-harness';
import { scriptedThread, userMessage } from '../../support/threads';
import { startServe, type ServeProcess } from '../../support/serve-process';
import { YPeer } from '../../support/y-peer';
import type { WsClient } from '../../support/ws-client';

const hosts: ServeProcess[] = [];
const clients: WsClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const h of hosts.splice(0)) await h.kill();
});

async function serve(home: string): Promise<ServeProcess> {
  const h = await startServe(home);
  hosts.push(h);
  return h;
}

async function connect(h: ServeProcess): Promise<WsClient> {
  const c = await h.connect();
  clients.push(c);
  return c;
}

async function peer(h: ServeProcess, file: string): Promise<YPeer> {
  const p = new YPeer(await connect(h));
  await p.open(file);
  return p;
}

const textOf = (t: Thread, i: number) => (t.context.messages[i].content[0] as { text: string }).text;

/**
 * Waits for the save of what `p` typed (the thread's Yjs state is written with it), then kills
 * `h` (SIGKILL of the process group) and forgets it.
 */
async function savedThenKilled(h: ServeProcess, home: string, p: YPeer): Promise<void> {
  const state = path.join(home, 'runs', p.threadId, 'thread.ydoc');
  const typed = (t: Thread) => textOf(t, 0) + '|' + t.context.systemPrompt;
  const want = typed(p.thread());
  await waitFor(() => fs.existsSync(state) && typed(readThread(home, 'a.json')) === want && fs.statSync(state).mtimeMs >= fs.statSync(path.join(home, 'workspace', 'a.json')).mtimeMs, 10_000, 'the save');
  await h.kill();
  hosts.splice(hosts.indexOf(h), 1);
}

describe("the host's Yjs document across a restart", () => {
  it('a window that typed while the host restarted merges its unsent edits into the same document', async () => {
    const home = makeHome();
    writeThread(home, 'a.json', scriptedThread([{ text: 'ok' }], { messages: [userMessage('hello', 'm1')] }));
    const first = await serve(home);
    const a = await peer(first, 'a.json');
    await a.edit((y) => findText(y.messages, 'm1')!.insert(5, ' there'));
    const docId = a.docId;
    await savedThenKilled(first, home, a);
    // The host is down; the window keeps typing (held back: the connection is gone).
    a.pause();
    a.doc.transact(() => findText(a.y.messages, 'm1')!.insert(0, 'Oh, '));
    a.doc.transact(() => a.y.systemPrompt.insert(a.y.systemPrompt.length, ' Offline.'));

    const second = await serve(home);
    // Another window types into the same text on the restarted host first.
    const b = await peer(second, 'a.json');
    expect(b.docId).toBe(docId);
    await b.edit((y) => { const t = findText(y.messages, 'm1')!; t.insert(t.length, '!'); });
    const r = await a.rejoin(await connect(second), 'a.json');
    expect(r.docId).toBe(docId);
    expect(r.sent).toBeDefined();

    const host = await b.client.call<{ thread: Thread }>('thread.open', { path: 'a.json' });
    expect(textOf(host.thread, 0)).toBe('Oh, hello there!');
    expect(host.thread.context.systemPrompt).toBe('You are a test. Offline.');
    expect(textOf(a.thread(), 0)).toBe('Oh, hello there!');
    await waitFor(() => textOf(readThread(home, 'a.json'), 0) === 'Oh, hello there!', 10_000, 'the merged text saved');
  }, 120_000);

  it('a file changed while the host was down, or a state file that is not one, gets a new document', async () => {
    const home = makeHome();
    writeThread(home, 'a.json', scriptedThread([{ text: 'ok' }], { messages: [userMessage('hello', 'm1')] }));
    const first = await serve(home);
    const a = await peer(first, 'a.json');
    await a.edit((y) => findText(y.messages, 'm1')!.insert(5, ' there'));
    const docId = a.docId;
    await savedThenKilled(first, home, a);

    // Changed outside while no host ran: the saved state no longer matches its JSON.
    const changed = readThread(home, 'a.json');
    changed.context.systemPrompt = 'Changed by hand.';
    writeThread(home, 'a.json', changed);
    const second = await serve(home);
    const b = await peer(second, 'a.json');
    expect(b.docId).not.toBe(docId);
    expect(b.thread().context.systemPrompt).toBe('Changed by hand.');
    expect(textOf(b.thread(), 0)).toBe('hello there');
    const r = await a.rejoin(await connect(second), 'a.json');
    expect(r.docId).toBe(b.docId); // not the window's: it loads the thread again
    await b.edit((y) => y.systemPrompt.insert(0, '>'));
    await savedThenKilled(second, home, b);

    // A state file that is not one is set aside with a log line; the thread opens from its JSON.
    const state = path.join(home, 'runs', b.threadId, 'thread.ydoc');
    expect(fs.existsSync(state)).toBe(true);
    fs.writeFileSync(state, 'stepwise-ydoc 1\n{"docId": 3}\n\u0000garbage');
    const third = await serve(home);
    const c = await peer(third, 'a.json');
    expect(c.docId).not.toBe(b.docId);
    expect(c.thread().context.systemPrompt).toBe('>Changed by hand.');
    await c.edit((y) => y.systemPrompt.insert(0, '>'));
    const host = await c.client.call<{ thread: Thread }>('thread.open', { path: 'a.json' });
    expect(host.thread.context.systemPrompt).toBe('>>Changed by hand.');
  }, 120_000);
});
