/**
 * Windows editing one thread at once (docs/architecture.md#multi-window-editing), as the
 * properties of the multi-window benchmark (bench/multi-window/properties.ts): for every
 * interleaving of keystrokes, updates and pushes — chosen by fast-check's scheduler — all
 * windows end showing the host's document, no typed character is lost, resurrected or
 * duplicated, every window's own order is kept, and undo takes out only the window's own edits.
 *
 * The host is an in-memory stand-in for main/core/store/thread-ydoc.ts (the renderer may not
 * import main/): one `Y.Doc` that applies each window's `thread.update` and relays it as a
 * `thread_update` push to the other windows, every message over one FIFO channel per direction
 * per window, like the WebSocket.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as Y from 'yjs';
import { createStore } from 'jotai';
import { ThreadSession } from './thread-session';
import { fromBase64, toBase64 } from './thread-sync';
import type { HostServices } from '../host/types';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadUpdate } from '../../../shared/protocol/envelopes';
import { newThreadDoc, yToThread } from '../../../shared/thread/y-thread';

type Scheduler = fc.Scheduler;

/** A thread whose message `field` holds `base`, between two others. */
function smallThread(base: string): Thread {
  const text = (id: string, t: string) => ({ id, role: 'user' as const, content: [{ type: 'text' as const, text: t }] });
  return {
    version: 1,
    id: '00000000-0000-4000-8000-00000000b002',
    title: 'two windows',
    model: { provider: 'scripted', id: 'scripted', params: {} },
    context: { systemPrompt: 'You are careful.', tools: [], messages: [text('first', 'first'), text('field', base), text('last', 'last')] },
    runRefs: [],
  };
}

/** A host with `n` windows on `initial`; every message between a window and the host goes through `s`. */
async function sharedHost(initial: Thread, s: Scheduler, n: number) {
  const doc = newThreadDoc(initial);
  const docId = doc.guid;
  const sessions: ThreadSession[] = [];
  function channel() {
    const queue: (() => void)[] = [];
    return (deliver: () => void) => {
      queue.push(deliver);
      void s.schedule(Promise.resolve()).then(() => queue.shift()!());
    };
  }
  const toHost = Array.from({ length: n }, channel);
  const toClient = Array.from({ length: n }, channel);
  const opened = () => ({ thread: yToThread(doc), version: 0, path: 'a.json', yjs: { update: toBase64(Y.encodeStateAsUpdate(doc)), stateVector: toBase64(Y.encodeStateVector(doc)), docId, version: 0 } });

  function serve(client: number, method: string, params: { update: string }): unknown {
    if (method === 'thread.open') return opened();
    Y.applyUpdate(doc, fromBase64(params.update), client);
    const push: ThreadUpdate = { v: 1, type: 'thread_update', threadId: initial.id, docId, update: params.update, origin: `client:${client}` };
    sessions.forEach((session, i) => i !== client && toClient[i](() => session.applyRemote(push)));
    return { version: 1 };
  }

  const hostFor = (client: number): HostServices =>
    ({
      presentational: false,
      call: (method: string, params: never) =>
        new Promise((resolve) =>
          toHost[client](() => {
            const r = serve(client, method, params);
            toClient[client](() => resolve(r));
          }),
        ),
      pushes: () => ({ [Symbol.asyncIterator]: async function* () {} }),
    }) as unknown as HostServices;

  for (let i = 0; i < n; i++) sessions.push(new ThreadSession(createStore(), hostFor(i), opened()));
  return { sessions, doc };
}

/** The text of message `id` in `t`. */
const textOf = (t: Thread, id: string) => (t.context.messages.find((m) => m.id === id)?.content[0] as { text: string } | undefined)?.text;

/** Settle every message in flight. */
async function settle(s: Scheduler, sessions: ThreadSession[]): Promise<void> {
  await s.waitAll();
  while (sessions.some((x) => !x.settled)) await s.waitAll();
}

/** Window `w` types key `k` (a unique character, or Backspace) at its cursor `at` in message `field`. */
function press(session: ThreadSession, key: string | 'del', at: number): void {
  session.edit((d) => {
    const part = d.context.messages.find((m) => m.id === 'field')!.content[0] as { text: string };
    const i = Math.min(at, part.text.length);
    part.text = key === 'del' ? part.text.slice(0, Math.max(0, i - 1)) + part.text.slice(i) : part.text.slice(0, i) + key + part.text.slice(i);
  }, 'field');
}

const uniq = (w: number, i: number) => String.fromCharCode(0x4e00 + w * 256 + i);

function isSubsequence(part: string, whole: string): boolean {
  let i = 0;
  for (const c of whole) if (i < part.length && c === part[i]) i++;
  return i === part.length;
}

describe('windows as Yjs peers', () => {
  it('both type at the end of one text: converge, every key once, each window in its order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), async (s, a, b) => {
        const h = await sharedHost(smallThread('base'), s, 2);
        const typed = [a, b].map((n, w) => Array.from({ length: n }, (_, i) => uniq(w, i)));
        const typing = typed.map(async (keys, w) => {
          for (const k of keys) {
            await s.schedule(Promise.resolve(), `window ${w} types`);
            press(h.sessions[w], k, Infinity);
          }
        });
        await s.waitFor(Promise.all(typing));
        await settle(s, h.sessions);
        const final = textOf(yToThread(h.doc), 'field')!;
        for (const x of h.sessions) expect(textOf(x.thread, 'field')).toBe(final);
        expect(final).toHaveLength(4 + a + b);
        for (const keys of typed) expect(isSubsequence(keys.join(''), final)).toBe(true);
        for (const x of h.sessions) expect(x.thread).toEqual(yToThread(h.doc));
      }),
      { numRuns: 100 },
    );
  });

  it('both type and press Backspace at nearby cursors: nothing lost, nothing resurrected', async () => {
    const keys = fc.array(fc.tuple(fc.constantFrom('ins', 'ins', 'del'), fc.nat(6)), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), keys, keys, async (s, ka, kb) => {
        const h = await sharedHost(smallThread('abcdef'), s, 2);
        const deleted = new Set<string>();
        const typed = new Set<string>();
        const typing = [ka, kb].map(async (list, w) => {
          for (const [i, [kind, at]] of list.entries()) {
            await s.schedule(Promise.resolve(), `window ${w} presses`);
            const before = textOf(h.sessions[w].thread, 'field')!;
            if (kind === 'del') {
              const i2 = Math.min(at, before.length);
              if (i2 > 0) deleted.add(before[i2 - 1]);
              press(h.sessions[w], 'del', at);
            } else {
              typed.add(uniq(w, i));
              press(h.sessions[w], uniq(w, i), at);
            }
          }
        });
        await s.waitFor(Promise.all(typing));
        await settle(s, h.sessions);
        const final = textOf(yToThread(h.doc), 'field')!;
        for (const x of h.sessions) expect(textOf(x.thread, 'field')).toBe(final);
        const expected = [...'abcdef', ...typed].filter((c) => !deleted.has(c)).sort();
        expect([...final].sort()).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('then one window undoes everything: only its own edits go', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.nat(4), async (s, a, b, at) => {
        const h = await sharedHost(smallThread('abcd'), s, 2);
        const typing = [a, b].map(async (n, w) => {
          for (let i = 0; i < n; i++) {
            await s.schedule(Promise.resolve(), `window ${w} types`);
            press(h.sessions[w], uniq(w, i), w === 0 ? at : Infinity);
          }
        });
        await s.waitFor(Promise.all(typing));
        await settle(s, h.sessions);
        while (h.sessions[0].undo()) await settle(s, h.sessions);
        await settle(s, h.sessions);
        const final = textOf(yToThread(h.doc), 'field')!;
        expect(textOf(h.sessions[1].thread, 'field')).toBe(final);
        expect(final).toBe('abcd' + Array.from({ length: b }, (_, i) => uniq(1, i)).join(''));
      }),
      { numRuns: 100 },
    );
  });

  it('one deletes an earlier message while the other types; the delete undone brings it back, the typing kept', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 6 }), async (s, n) => {
        const h = await sharedHost(smallThread('abc'), s, 2);
        const typing = (async () => {
          for (let i = 0; i < n; i++) {
            await s.schedule(Promise.resolve(), 'window 1 types');
            press(h.sessions[1], uniq(1, i), Infinity);
          }
        })();
        const deleting = (async () => {
          await s.schedule(Promise.resolve(), 'window 0 deletes');
          h.sessions[0].edit((d) => void d.context.messages.splice(0, 1));
        })();
        await s.waitFor(Promise.all([typing, deleting]));
        await settle(s, h.sessions);
        expect(yToThread(h.doc).context.messages.map((m) => m.id)).toEqual(['field', 'last']);
        expect(h.sessions[0].undo()).toBe(true);
        await settle(s, h.sessions);
        const host = yToThread(h.doc);
        expect(host.context.messages.map((m) => m.id)).toEqual(['first', 'field', 'last']);
        expect(textOf(host, 'field')).toBe('abc' + Array.from({ length: n }, (_, i) => uniq(1, i)).join(''));
        for (const x of h.sessions) expect(x.thread).toEqual(host);
      }),
      { numRuns: 100 },
    );
  });
});
