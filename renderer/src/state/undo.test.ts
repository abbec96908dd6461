import { describe, expect, it } from 'vitest';
import { applyPatches, enablePatches, produceWithPatches } from 'immer';
import { UndoHistory, base64Bytes } from './undo';

enablePatches();

interface Doc {
  prompt: string;
  title: string;
  images: { type: 'image'; mimeType: string; data: string }[];
}

function harness(opts: ConstructorParameters<typeof UndoHistory>[0] = {}) {
  let t = 0;
  const h = new UndoHistory({ now: () => t, ...opts });
  let doc: Doc = { prompt: '', title: 'a', images: [] };
  return {
    h,
    get doc() {
      return doc;
    },
    tick(ms: number) {
      t += ms;
    },
    edit(fn: (d: Doc) => void, key?: string) {
      const [next, fwd, inv] = produceWithPatches(doc, fn);
      doc = next;
      h.record(fwd, inv, { key, current: doc });
    },
    undo() {
      const s = h.take('undo', doc);
      if (s) doc = applyPatches(doc, s.patches);
    },
    redo() {
      const s = h.take('redo', doc);
      if (s) doc = applyPatches(doc, s.patches);
    },
  };
}

describe('undo history', () => {
  it('merges typing in one field within 800 ms into one step', () => {
    const x = harness();
    for (const ch of 'hello') {
      x.edit((d) => void (d.prompt += ch), 'prompt');
      x.tick(300);
    }
    expect(x.h.undoCount).toBe(1);
    x.undo();
    expect(x.doc.prompt).toBe('');
    x.redo();
    expect(x.doc.prompt).toBe('hello');
  });

  it('makes two steps when the same field changes after a pause, and for another field', () => {
    const x = harness();
    x.edit((d) => void (d.prompt = 'one'), 'prompt');
    x.tick(801);
    x.edit((d) => void (d.prompt = 'one two'), 'prompt');
    x.tick(10);
    x.edit((d) => void (d.title = 'b'), 'title');
    expect(x.h.undoCount).toBe(3);
    x.undo();
    expect(x.doc).toMatchObject({ prompt: 'one two', title: 'a' });
    x.undo();
    expect(x.doc.prompt).toBe('one');
  });

  it('keeps a run result as its own step that never merges', () => {
    const x = harness();
    x.edit((d) => void (d.prompt = 'p'), 'prompt');
    const [next, fwd, inv] = produceWithPatches(x.doc, (d) => void (d.title = 'from run'));
    x.h.record(fwd, inv, { origin: 'run', current: next });
    expect(x.h.undoCount).toBe(2);
  });

  it('caps the step count, dropping the oldest', () => {
    const x = harness({ maxSteps: 500 });
    for (let i = 0; i < 520; i++) x.edit((d) => void (d.title = `t${i}`));
    expect(x.h.undoCount).toBe(500);
  });

  it('counts only images the history alone references against the byte budget', () => {
    const img = (n: number, c: string) => ({ type: 'image' as const, mimeType: 'image/png', data: c.repeat(n) });
    const x = harness({ maxImageBytes: 3000 });
    const a = img(2000, 'A'); // 1500 bytes
    const b = img(2000, 'B');
    const c = img(2000, 'C');
    x.edit((d) => void d.images.push(a));
    x.edit((d) => void d.images.push(b));
    x.edit((d) => void d.images.push(c));
    // All three images are still in the thread: they cost the history nothing.
    expect(x.h.historyImageBytes(x.doc)).toBe(0);
    expect(x.h.undoCount).toBe(3);
    // Remove them one by one: each removed image is then held by the history alone.
    x.edit((d) => void d.images.shift());
    x.edit((d) => void d.images.shift());
    expect(x.h.historyImageBytes(x.doc)).toBe(3000);
    expect(x.h.undoCount).toBe(5);
    x.edit((d) => void d.images.shift()); // 4500 bytes > budget: the oldest steps go until A is unreferenced
    expect(x.h.historyImageBytes(x.doc)).toBe(3000);
    expect(x.h.undoCount).toBe(2);
    x.undo();
    x.undo();
    expect(x.doc.images.map((i) => i.data[0])).toEqual(['B', 'C']);
    expect(base64Bytes('QUJD')).toBe(3);
  });

  it('does not walk the thread for images while no step holds one', () => {
    // A run's result of thousands of messages is one step; weighing the history's images read
    // the whole thread each time, though no step held an image.
    const h = new UndoHistory();
    let reads = 0;
    const messages = Array.from({ length: 50 }, (_, i) => ({ id: `m${i}`, content: [{ type: 'text', text: 'x' }] }));
    const counted = (v: unknown): unknown => (v === null || typeof v !== 'object' ? v : new Proxy(v as object, {
      get: (t, k, r) => {
        reads++;
        return counted(Reflect.get(t, k, r));
      },
    }));
    const current = counted({ context: { messages } });
    h.record([{ op: 'add', path: ['context', 'messages', 50], value: { id: 'm50' } }], [{ op: 'remove', path: ['context', 'messages', 50] }], { origin: 'run', runId: 'r1', current });
    expect(reads).toBe(0);
    expect(h.historyImageBytes(current)).toBe(0);
    expect(reads).toBe(0);
    expect(h.undoCount).toBe(1);
  });
});
