import { describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';
import { applyPatches, enablePatches, produceWithPatches, type Patch } from 'immer';
import { ThreadSession } from './thread-session';
import { HostCallError, type HostServices } from '../host/types';
import { exampleThread } from '../sample-thread';
import type { Thread } from '../../../shared/thread/schema';
import { giveDuplicatesNewIds } from '../../../shared/thread/ids';

enablePatches();

// An in-memory host playing ThreadStore's part (apply patches at a base version, bump it,
// answer version_mismatch otherwise). The real ThreadStore lives in main/, which the renderer
// may not import; this fake follows docs/architecture.md#edits-and-undo to the letter.
function fakeHost(initial: Thread) {
  let doc = initial;
  let version = 1;
  const edits: { baseVersion: number; patches: Patch[] }[] = [];
  const host: HostServices = {
    presentational: false,
    async call(method: string, params: any): Promise<any> {
      if (method === 'thread.open') return { thread: doc, version, path: 'a.json' };
      if (method === 'thread.edit') {
        edits.push(params);
        if (params.baseVersion !== version) throw new HostCallError('stale base', 'version_mismatch', method);
        doc = applyPatches(doc, params.patches);
        return { version: ++version };
      }
      throw new Error(`unexpected ${method}`);
    },
    pushes: () => ({ [Symbol.asyncIterator]: async function* () {} }),
  } as HostServices;
  return {
    host,
    edits,
    get doc() {
      return doc;
    },
    get version() {
      return version;
    },
    /** Someone else (another window, a run) changes the document. */
    external(fn: (d: Thread) => void) {
      const [next, patches] = produceWithPatches(doc, fn);
      doc = next;
      version++;
      return { patches, version };
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('ThreadSession', () => {
  it('freezes the thread the host sent once the page is idle, so the first edit does not walk all of it', async () => {
    const sent = JSON.parse(JSON.stringify(exampleThread())) as Thread;
    const s = new ThreadSession(createStore(), fakeHost(sent).host, { thread: sent, version: 1, path: 'a.json' });
    expect(Object.isFrozen(sent.context.messages[0])).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    expect(Object.isFrozen(sent.context.messages[0])).toBe(true);
    expect(Object.isFrozen(s.thread.model)).toBe(true);
    // Edits still make new documents from it.
    s.edit((d) => void (d.title = 'renamed'));
    expect(s.thread.title).toBe('renamed');
    expect(s.thread.context.messages[0]).toBe(sent.context.messages[0]);
    // A big thread is frozen over several slices, every message in the end.
    const big = JSON.parse(JSON.stringify(exampleThread())) as Thread;
    const m = big.context.messages[0]!;
    big.context.messages = Array.from({ length: 3000 }, (_, i) => ({ ...JSON.parse(JSON.stringify(m)), id: `m${i}` }));
    new ThreadSession(createStore(), fakeHost(big).host, { thread: big, version: 1, path: 'b.json' });
    for (let waited = 0; !Object.isFrozen(big.context.messages[0]!.content) && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(big.context.messages.every((x) => Object.isFrozen(x) && Object.isFrozen(x.content))).toBe(true);
  });

  it('sends edits with their base version, one at a time, and undo sends the inverse', async () => {
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json' });
    s.edit((d) => void (d.context.systemPrompt = 'A'), 'systemPrompt');
    s.edit((d) => void (d.context.systemPrompt = 'AB'), 'systemPrompt');
    await settle();
    await settle();
    expect(h.doc.context.systemPrompt).toBe('AB');
    expect(h.edits.map((e) => e.baseVersion)).toEqual([1, 2]);
    expect(s.history.undoCount).toBe(1); // typing merged
    s.undo();
    await settle();
    expect(s.thread.context.systemPrompt).toBe(exampleThread().context.systemPrompt);
    expect(h.doc.context.systemPrompt).toBe(exampleThread().context.systemPrompt);
    expect(s.meta.version).toBe(h.version);
  });

  it("makes a run's thread_patch one undo step and ignores patches it already has", () => {
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json' });
    const run = h.external((d) => void d.context.messages.push({ id: 'm3', role: 'assistant', content: [{ type: 'text', text: 'The sum is 5.' }] }));
    const tp = { v: 1 as const, type: 'thread_patch' as const, threadId: s.id, version: run.version, patches: run.patches, origin: 'run:r1' };
    s.applyRemote(tp);
    s.applyRemote(tp); // duplicate: ignored
    expect(s.thread.context.messages).toHaveLength(3);
    expect(s.history.undoCount).toBe(1);
    expect(s.meta.version).toBe(2);
    expect(s.meta.undoneRuns).toEqual([]);
    s.undo();
    expect(s.thread.context.messages).toHaveLength(2);
    // The execution pane says which shown run's result was undone, until it is redone.
    expect(s.meta.undoneRuns).toEqual(['r1']);
    s.redo();
    expect(s.thread.context.messages).toHaveLength(3);
    expect(s.meta.undoneRuns).toEqual([]);
  });

  it('on version_mismatch replays its own edits on the other window\'s version: both survive', async () => {
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json' });
    h.external((d) => void (d.title = 'renamed elsewhere')); // another window; its patch never reached us
    s.edit((d) => void (d.context.systemPrompt = 'mine'));
    s.edit((d) => void (d.context.systemPrompt = 'mine, and more'), 'prompt');
    for (let i = 0; i < 8; i++) await settle();
    expect(s.thread.title).toBe('renamed elsewhere');
    expect(s.thread.context.systemPrompt).toBe('mine, and more');
    expect(h.doc.title).toBe('renamed elsewhere');
    expect(h.doc.context.systemPrompt).toBe('mine, and more');
    expect(s.meta.version).toBe(h.version);
    expect(s.history.canUndo).toBe(true);
  });

  it('reloads, dropping the history, when its edits no longer apply to the other version', async () => {
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json' });
    h.external((d) => void d.context.messages.splice(0)); // another window deleted every message
    s.edit((d) => void ((d.context.messages[0] as { content: { text: string }[] }).content[0].text = 'edited'));
    for (let i = 0; i < 8; i++) await settle();
    expect(s.thread.context.messages).toHaveLength(0);
    expect(s.meta.version).toBe(h.version);
    expect(s.history.canUndo).toBe(false);
    expect(s.meta.error?.message).toMatch(/cannot apply/);
  });

  it('after a reconnect, catches up with what the host got meanwhile (its pushes were lost)', async () => {
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json' });
    h.external((d) => void (d.title = 'renamed while we were away')); // its thread_patch never came
    s.resync();
    for (let i = 0; i < 4; i++) await settle();
    expect(s.thread.title).toBe('renamed while we were away');
    expect(s.meta.version).toBe(h.version);
    // Edits go on from the host's version.
    s.edit((d) => void (d.context.systemPrompt = 'after'));
    for (let i = 0; i < 4; i++) await settle();
    expect(h.doc.context.systemPrompt).toBe('after');
    expect(h.doc.title).toBe('renamed while we were away');
  });

  it('sends edits from a page that is no secure context (no crypto.randomUUID), each with an edit id', async () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: <T extends ArrayBufferView>(a: T): T => real.getRandomValues(a as never) });
    try {
      const h = fakeHost(exampleThread());
      const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json' });
      s.edit((d) => void (d.title = 'over plain HTTP'));
      await settle();
      expect(h.doc.title).toBe('over plain HTTP');
      expect((h.edits[0] as { editId?: string }).editId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(s.settled).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('refuses edits while a run of the thread runs', () => {
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json', running: 'r9' });
    expect(s.edit((d) => void (d.title = 'x'))).toBe(false);
    s.setRunning(undefined);
    expect(s.edit((d) => void (d.title = 'x'))).toBe(true);
  });
});

describe('switching threads in a window', () => {
  it('a session taken up again keeps its undo history when the document is unchanged, and not otherwise', async () => {
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json' });
    s.edit((d) => void (d.context.systemPrompt = 'edited'));
    await settle();
    expect(s.settled).toBe(true);
    // Back to this thread (renamed meanwhile), the content is the same.
    expect(s.resume({ thread: structuredClone(h.doc), version: h.version, path: 'renamed.json' })).toBe(true);
    expect(s.meta.path).toBe('renamed.json');
    expect(s.meta.canUndo).toBe(true);
    s.undo();
    expect(s.thread.context.systemPrompt).toBe(exampleThread().context.systemPrompt);
    await settle();
    expect(h.edits.at(-1)?.baseVersion).toBe(2);
    expect(h.doc.context.systemPrompt).toBe(exampleThread().context.systemPrompt);
    // Changed while away (another window): no resume, the caller starts a new session.
    h.external((d) => void (d.context.systemPrompt = 'from elsewhere'));
    expect(s.resume({ thread: h.doc, version: h.version, path: 'a.json' })).toBe(false);
  });

  it('a thread that repeats ids takes only an edit, undo or redo that leaves none; the step refused stays in the history', async () => {
    const h = fakeHost(exampleThread());
    const s = new ThreadSession(createStore(), h.host, { thread: h.doc, version: 1, path: 'a.json' });
    s.edit((d) => void (d.context.systemPrompt = 'before'), 'systemPrompt');
    await settle();
    // Another window (or the file) adds a copy of message m1: the thread repeats an id now.
    const copy = h.external((d) => void d.context.messages.push(JSON.parse(JSON.stringify(d.context.messages[0]))));
    s.applyRemote({ v: 1, type: 'thread_patch', threadId: s.id, version: copy.version, patches: copy.patches, origin: 'file' });
    expect(s.thread.context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1']);
    const sent = h.edits.length;
    expect(s.edit((d) => void (d.context.systemPrompt = 'typed'), 'systemPrompt')).toBe(false);
    expect(s.undo()).toBe(false); // undoing 'before' would still leave m1 twice
    expect(s.thread.context.systemPrompt).toBe('before');
    expect(s.history.canUndo).toBe(true);
    expect(h.edits.length).toBe(sent); // nothing went to the host
    expect(s.edit((d) => void giveDuplicatesNewIds(d as Thread))).toBe(true);
    await settle();
    expect(h.doc.context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1-2']);
    expect(s.undo()).toBe(true); // the repair itself can be undone: the repeat is back
    expect(s.thread.context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1']);
    expect(s.undo()).toBe(false); // below it, 'before' again: it would keep the repeat
    expect(s.redo()).toBe(true);
    expect(s.edit((d) => void (d.context.systemPrompt = 'after'), 'systemPrompt')).toBe(true);
    await settle();
    expect(h.doc.context.systemPrompt).toBe('after');
    expect(h.doc.context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1-2']);
    expect(s.meta.error).toBeUndefined();
  });
});
