/**
 * Windows as Yjs peers of the host (docs/architecture.md#multi-window-editing), over the real
 * WebSocket of `bin/stepwise.mjs serve`: two windows typing into one thread converge with the
 * host's JSON; the host reverts (in every window) an update that breaks the thread, one made
 * while a run runs, and bytes that are not an update; an edit by patches and a run's result
 * reach the windows as Yjs updates; and every acknowledged update survives SIGKILL of the whole
 * serve process group (it is in the edit log before the answer), after a restart in the file
 * and in what a window opens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Thread } from '../../../shared/thread/schema';
import { findText } from '../../../shared/thread/y-thread';
import { makeHome, readThread, rejection, waitFor, writeThread } from '../../support/host-harness';
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

async function peer(h: ServeProcess, file: string): Promise<YPeer> {
  const c = await h.connect();
  clients.push(c);
  const p = new YPeer(c);
  await p.open(file);
  return p;
}

const textOf = (t: Thread, i: number) => (t.context.messages[i].content[0] as { text: string }).text;

describe('windows as Yjs peers of stepwise serve', () => {
  it('two windows typing into one text converge with the host, and an edit by patches reaches both as an update', async () => {
    const home = makeHome();
    writeThread(home, 'a.json', scriptedThread([{ text: 'ok' }], { messages: [userMessage('hello', 'm1')] }));
    const h = await serve(home);
    const [a, b] = [await peer(h, 'a.json'), await peer(h, 'a.json')];
    // Both type into the same text at once, each key sent before the other's arrives.
    const keys: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      keys.push(a.edit((y) => findText(y.messages, 'm1')!.insert(0, String.fromCharCode(65 + i))));
      keys.push(b.edit((y) => { const t = findText(y.messages, 'm1')!; t.insert(t.length, String.fromCharCode(97 + i)); }));
    }
    await Promise.all(keys);
    const host = await a.client.call<{ thread: Thread }>('thread.open', { path: 'a.json' });
    await waitFor(() => textOf(a.thread(), 0) === textOf(host.thread, 0) && textOf(b.thread(), 0) === textOf(host.thread, 0), 10_000, 'both windows to converge');
    const text = textOf(host.thread, 0);
    expect(text).toHaveLength(45);
    for (let i = 0; i < 20; i++) expect(text).toContain(String.fromCharCode(65 + i));
    expect(text).toContain('hello' + 'abcdefghijklmnopqrst');

    // An edit by patches (the CLI's way) reaches both windows as a Yjs update.
    const { version } = await a.client.call<{ version: number }>('thread.open', { path: 'a.json' });
    await a.client.call('thread.edit', { threadId: a.threadId, baseVersion: version, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'By patch.' }] });
    await waitFor(() => a.thread().context.systemPrompt === 'By patch.' && b.thread().context.systemPrompt === 'By patch.', 10_000, 'the patch in both windows');
  }, 120_000);

  it('an update that breaks the thread, or is not an update, is refused and undone in every window; a thread not open is refused', async () => {
    const home = makeHome();
    writeThread(home, 'a.json', scriptedThread([{ text: 'ok' }], { messages: [userMessage('hello', 'm1')] }));
    const h = await serve(home);
    const [a, b] = [await peer(h, 'a.json'), await peer(h, 'a.json')];
    const bad = await rejection(a.edit((y) => y.messages.get(0).set('role', 'robot')));
    expect(bad.code).toBe('invalid_edit');
    expect(bad.message).toMatch(/\/context\/messages\/0/);
    const idChange = await rejection(a.edit((y) => y.meta.set('id', 'another')));
    expect(idChange.code).toBe('invalid_edit');
    await waitFor(() => a.thread().context.messages[0].role === 'user' && a.thread().id !== 'another', 10_000, 'the sender to be reverted');
    // The other window never shows the refused change.
    expect(b.thread().context.messages[0].role).toBe('user');

    for (const junk of [new Uint8Array([1, 2, 3, 250, 251]), new Uint8Array(64).fill(255), new Uint8Array(0)]) {
      const r = await rejection(a.send(junk)).catch(() => ({ code: 'accepted', message: '' }));
      expect(['invalid_edit', 'accepted']).toContain(r.code);
    }
    const notOpen = await rejection(a.client.call('thread.update', { threadId: 'not-a-thread', docId: a.docId, update: '' }));
    expect(notOpen.code).toBe('not_open');
    const wrongDoc = await rejection(a.client.call('thread.update', { threadId: a.threadId, docId: 'other', update: Buffer.from(Y.encodeStateAsUpdate(new Y.Doc())).toString('base64') }));
    expect(wrongDoc.code).toBe('stale_doc');

    // Still serving, and still in agreement.
    await a.edit((y) => findText(y.messages, 'm1')!.insert(5, '!'));
    const host = await b.client.call<{ thread: Thread }>('thread.open', { path: 'a.json' });
    expect(textOf(host.thread, 0)).toBe('hello!');
    await waitFor(() => textOf(b.thread(), 0) === 'hello!', 10_000, 'the good edit in the other window');
    expect(a.thread()).toEqual(host.thread);
  }, 120_000);

  it('while a run runs, an update is answered read_only and undone; the run result arrives as an update', async () => {
    const home = makeHome();
    writeThread(home, 'a.json', scriptedThread([{ text: 'A slow answer, one token at a time, to keep the run going a while.' }], { tokensPerSecond: 20, messages: [userMessage('hello', 'm1')] }));
    const h = await serve(home);
    const [a, b] = [await peer(h, 'a.json'), await peer(h, 'a.json')];
    await a.client.call('run.start', { threadId: a.threadId, mode: 'step' });
    const refused = await rejection(a.edit((y) => findText(y.messages, 'm1')!.insert(0, 'X')));
    expect(refused.code).toBe('read_only');
    await waitFor(() => textOf(a.thread(), 0) === 'hello', 10_000, 'the typing to be undone');
    await waitFor(() => a.thread().context.messages.length === 2 && b.thread().context.messages.length === 2, 60_000, 'the run result in both windows');
    expect(b.thread().context.messages[1].role).toBe('assistant');
    const host = await a.client.call<{ thread: Thread }>('thread.open', { path: 'a.json' });
    expect(a.thread()).toEqual(host.thread);
  }, 120_000);

  it('a file changed outside reaches the windows as a diffed update: what a window typed into the same text meanwhile stays', async () => {
    const home = makeHome();
    const t = scriptedThread([{ text: 'ok' }], { messages: [userMessage('one two three', 'm1')] });
    writeThread(home, 'a.json', t);
    const h = await serve(home);
    const a = await peer(h, 'a.json');
    // The window types at the end; before the host hears of it, another program changes the start of the same text in the file.
    a.pause();
    a.doc.transact(() => findText(a.y.messages, 'm1')!.insert(13, ' four'));
    const outside = structuredClone(t);
    (outside.context.messages[0].content[0] as { text: string }).text = 'ONE two three';
    writeThread(home, 'a.json', outside);
    await waitFor(() => textOf(a.thread(), 0) === 'ONE two three four', 20_000, 'the outside change merged into the window');
    await a.resume();
    const host = await a.client.call<{ thread: Thread }>('thread.open', { path: 'a.json' });
    expect(textOf(host.thread, 0)).toBe('ONE two three four');
  }, 120_000);

  it('every acknowledged update survives SIGKILL of the serve process group', async () => {
    const home = makeHome();
    writeThread(home, 'a.json', scriptedThread([{ text: 'ok' }], { messages: [userMessage('hello', 'm1')] }));
    const first = await serve(home);
    const a = await peer(first, 'a.json');
    const typed = 'Answer in French';
    for (const ch of typed) await a.edit((y) => y.systemPrompt.insert(y.systemPrompt.length, ch));
    await a.edit((y) => findText(y.messages, 'm1')!.insert(5, ', world'));
    await first.kill(); // right after the last answer, inside the 300 ms save debounce
    hosts.splice(hosts.indexOf(first), 1);

    const logs = path.join(home, 'edits');
    expect(fs.readFileSync(path.join(home, 'workspace', 'a.json'), 'utf8').includes(typed) || fs.readdirSync(logs).some((n) => fs.readFileSync(path.join(logs, n), 'utf8').includes(typed))).toBe(true);
    const second = await serve(home);
    const b = await peer(second, 'a.json');
    expect(b.thread().context.systemPrompt).toBe('You are a test.' + typed);
    expect(textOf(b.thread(), 0)).toBe('hello, world');
    expect(readThread(home, 'a.json').context.systemPrompt).toBe('You are a test.' + typed);
  }, 120_000);
});
