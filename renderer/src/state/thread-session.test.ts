/**
 * One window's session of a thread on Yjs (thread-session.ts): edits go out as Yjs updates,
 * the thread React renders follows the document, undo takes out this window's own steps (typing
 * merged, a run's result one step), and a thread that repeats ids takes only edits that end it.
 * The host is an in-memory stand-in for main/core/store/thread-ydoc.ts (the renderer may not
 * import main/): a `Y.Doc` that applies each update and can push its own transactions.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createStore } from 'jotai';
import { ThreadSession } from './thread-session';
import { fromBase64, toBase64 } from './thread-sync';
import { HostCallError, type HostServices } from '../host/types';
import { exampleThread } from '../sample-thread';
import type { Thread } from '../../../shared/thread/schema';
import { giveDuplicatesNewIds } from '../../../shared/thread/ids';
import { newThreadDoc, threadTypes, yToThread } from '../../../shared/thread/y-thread';
import { messageToY } from '../../../shared/thread/y-thread';

function fakeHost(initial: Thread, refuse?: () => string | undefined) {
  const doc = newThreadDoc(initial);
  const updates: Uint8Array[] = [];
  const sessions: ThreadSession[] = [];
  const opened = () => ({ thread: yToThread(doc), version: 0, path: 'a.json', yjs: { update: toBase64(Y.encodeStateAsUpdate(doc)), stateVector: toBase64(Y.encodeStateVector(doc)), docId: doc.guid, version: 0 } });
  const host = {
    presentational: false,
    async call(method: string, params: { update: string; docId: string }): Promise<unknown> {
      if (method === 'thread.open') return opened();
      if (method === 'thread.update') {
        if (params.docId !== doc.guid) throw new HostCallError('another document', 'stale_doc', method);
        const code = refuse?.();
        if (code) throw new HostCallError('refused', code, method);
        updates.push(fromBase64(params.update));
        Y.applyUpdate(doc, fromBase64(params.update), 'window');
        return { version: updates.length };
      }
      throw new Error(`unexpected ${method}`);
    },
    pushes: () => ({ [Symbol.asyncIterator]: async function* () {} }),
  } as unknown as HostServices;
  return {
    host,
    doc,
    updates,
    opened,
    open(): ThreadSession {
      const s = new ThreadSession(createStore(), host, opened());
      sessions.push(s);
      return s;
    },
    /** A host transaction (a run's result: origin `run:<id>`), pushed to every session. */
    change(origin: string, fn: (d: Y.Doc) => void) {
      let update: Uint8Array | undefined;
      const take = (u: Uint8Array) => (update = u);
      doc.on('update', take);
      doc.transact(() => fn(doc));
      doc.off('update', take);
      for (const s of sessions) s.applyRemote({ v: 1, type: 'thread_update', threadId: initial.id, docId: doc.guid, update: toBase64(update!), origin });
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('ThreadSession on Yjs', () => {
  it('freezes the thread the host sent once the page is idle, so the first edit does not walk all of it', async () => {
    const sent = JSON.parse(JSON.stringify(exampleThread())) as Thread;
    const h = fakeHost(sent);
    const s = new ThreadSession(createStore(), h.host, { ...h.opened(), thread: sent });
    expect(Object.isFrozen(sent.context.messages[0])).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    expect(Object.isFrozen(sent.context.messages[0])).toBe(true);
    s.edit((d) => void (d.title = 'renamed'));
    expect(s.thread.title).toBe('renamed');
    expect(s.thread.context.messages[0]).toBe(sent.context.messages[0]);
  });

  it("sends each edit as an update the host's document takes; typing within 800 ms is one undo step, and undo is sent too", async () => {
    let now = 0;
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, h.opened(), { now: () => now });
    const before = s.thread.context.systemPrompt;
    for (const t of ['A', 'AB', 'ABC']) {
      now += 100;
      s.edit((d) => void (d.context.systemPrompt = t), 'systemPrompt');
    }
    now += 2000; // a pause: a new step
    s.edit((d) => void (d.context.systemPrompt = 'ABCD'), 'systemPrompt');
    await settle();
    expect(yToThread(h.doc).context.systemPrompt).toBe('ABCD');
    expect(s.meta.version).toBe(4);
    expect(s.undo()).toBe(true);
    expect(s.thread.context.systemPrompt).toBe('ABC');
    expect(s.undo()).toBe(true);
    expect(s.thread.context.systemPrompt).toBe(before);
    expect(s.undo()).toBe(false);
    await settle();
    expect(yToThread(h.doc).context.systemPrompt).toBe(before);
    expect(s.redo()).toBe(true);
    await settle();
    expect(yToThread(h.doc).context.systemPrompt).toBe('ABC');
    expect(s.thread).toEqual(yToThread(h.doc));
  });

  it("a run's result is one undo step of its own, listed in undoneRuns while undone; another window's edit is never undone here", async () => {
    const h = fakeHost(exampleThread());
    const s = h.open();
    s.edit((d) => void (d.context.systemPrompt = 'mine'), 'systemPrompt');
    const count = s.thread.context.messages.length;
    h.change('run:r1', (d) => threadTypes(d).messages.push([messageToY({ id: 'answer', role: 'assistant', content: [{ type: 'text', text: 'The answer.' }] })]));
    h.change('client:9', (d) => threadTypes(d).meta.set('title', 'by another window'));
    expect(s.thread.context.messages).toHaveLength(count + 1);
    expect(s.undo()).toBe(true);
    expect(s.thread.context.messages).toHaveLength(count);
    expect(s.meta.undoneRuns).toEqual(['r1']);
    expect(s.thread.context.systemPrompt).toBe('mine');
    expect(s.redo()).toBe(true);
    expect(s.meta.undoneRuns).toEqual([]);
    expect(s.thread.context.messages.at(-1)!.id).toBe('answer');
    expect(s.undo() && s.undo()).toBe(true);
    expect(s.thread.context.systemPrompt).toBe(exampleThread().context.systemPrompt);
    expect(s.thread.title).toBe('by another window');
    await settle();
    expect(s.thread).toEqual(yToThread(h.doc));
  });

  it('keeps at most 500 undo steps', () => {
    const h = fakeHost(exampleThread());
    const s = h.open();
    for (let i = 0; i < 520; i++) s.edit((d) => void (d.title = `t${i}`));
    expect(s.history.size).toBe(500);
  });

  it('refuses edits while a run runs; an update the host refuses is reported', async () => {
    const refusal: { code?: string } = {};
    const h = fakeHost(exampleThread(), () => refusal.code);
    const s = h.open();
    s.setRunning('r1');
    expect(s.edit((d) => void (d.title = 'x'))).toBe(false);
    s.setRunning(undefined);
    refusal.code = 'invalid_edit';
    expect(s.edit((d) => void (d.title = 'x'))).toBe(true);
    await settle();
    expect(s.meta.error?.message).toMatch(/not saved: refused/);
  });

  it('an update on another host document reloads the thread from the host', async () => {
    const h = fakeHost(exampleThread());
    const s = h.open();
    s.applyRemote({ v: 1, type: 'thread_update', threadId: s.id, docId: 'another', update: '', origin: 'host' });
    await settle();
    await settle();
    expect(s.edit((d) => void (d.title = 'after reload'))).toBe(true);
    await settle();
    expect(yToThread(h.doc).title).toBe('after reload');
  });

  it('a thread that repeats ids takes only an edit, undo or redo that leaves none; the step refused stays in the history', async () => {
    const h = fakeHost(exampleThread());
    const s = h.open();
    s.edit((d) => void (d.context.systemPrompt = 'before'), 'systemPrompt');
    // Another window (or the file) adds a copy of message m1: the thread repeats an id now.
    h.change('file', (d) => {
      const first = threadTypes(d).messages.get(0).toJSON();
      threadTypes(d).messages.push([messageToY(first as never)]);
    });
    expect(s.thread.context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1']);
    const sent = h.updates.length;
    await settle();
    expect(s.edit((d) => void (d.context.systemPrompt = 'typed'), 'systemPrompt')).toBe(false);
    expect(s.undo()).toBe(false); // undoing 'before' would still leave m1 twice
    expect(s.thread.context.systemPrompt).toBe('before');
    expect(s.history.canUndo).toBe(true);
    expect(s.edit((d) => void giveDuplicatesNewIds(d as Thread))).toBe(true);
    await settle();
    expect(h.updates.length).toBeGreaterThan(sent);
    expect(yToThread(h.doc).context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1-2']);
    expect(s.undo()).toBe(true); // the repair itself can be undone: the repeat is back
    expect(s.thread.context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1']);
    expect(s.redo()).toBe(true);
    expect(s.edit((d) => void (d.context.systemPrompt = 'after'), 'systemPrompt')).toBe(true);
    await settle();
    expect(yToThread(h.doc).context.systemPrompt).toBe('after');
    expect(yToThread(h.doc).context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1-2']);
  });
});
