/**
 * Two windows typing into the same field of one thread at the same time (docs/architecture.md#multi-window-editing): every
 * interleaving of keystrokes, requests, answers and thread_patch pushes — chosen by
 * fast-check's scheduler — ends with both windows showing the host's document, and that
 * document holds every character each window typed, in the order it was typed, once.
 *
 * The host is an in-memory stand-in for main/core/store/thread-store.ts (the renderer may not
 * import main/): it applies patches at their base version or answers version_mismatch, and
 * sends each client its answers and pushes in order over one channel, like the WebSocket.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createStore } from 'jotai';
import { applyPatches, enablePatches, type Patch } from 'immer';
import { ThreadSession } from './thread-session';
import { removeAt } from './array-edits';
import { HostCallError, type HostServices } from '../host/types';
import { exampleThread } from '../sample-thread';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadPatch } from '../../../shared/protocol/envelopes';

enablePatches();

type Scheduler = fc.Scheduler;

/** A host with `n` clients; every message between a client and the host goes through `s`. */
function sharedHost(initial: Thread, s: Scheduler, n: number) {
  let doc = initial;
  let version = 1;
  const sessions: ThreadSession[] = [];
  /** One FIFO channel per direction per client; `s` decides when its next message moves. */
  function channel() {
    const queue: (() => void)[] = [];
    return (deliver: () => void) => {
      queue.push(deliver);
      void s.schedule(Promise.resolve()).then(() => queue.shift()!());
    };
  }
  const toHost = Array.from({ length: n }, channel);
  const toClient = Array.from({ length: n }, channel);

  function serve(client: number, method: string, params: { baseVersion: number; patches: Patch[] }): { ok: unknown } | { err: HostCallError } {
    if (method === 'thread.open') return { ok: { thread: doc, version, path: 'a.json', origin: `client:${client}` } };
    if (params.baseVersion !== version) return { err: new HostCallError(`base ${params.baseVersion} is not ${version}`, 'version_mismatch', method) };
    doc = applyPatches(doc, params.patches);
    version++;
    const tp: ThreadPatch = { v: 1, type: 'thread_patch', threadId: doc.id, version, patches: params.patches as ThreadPatch['patches'], origin: `client:${client}` };
    sessions.forEach((session, i) => toClient[i](() => session.applyRemote(tp)));
    return { ok: { version } };
  }

  const hostFor = (client: number): HostServices =>
    ({
      presentational: false,
      call: (method: string, params: never) =>
        new Promise((resolve, reject) =>
          toHost[client](() => {
            const r = serve(client, method, params);
            toClient[client](() => ('ok' in r ? resolve(r.ok) : reject(r.err)));
          }),
        ),
      pushes: () => ({ [Symbol.asyncIterator]: async function* () {} }),
    }) as unknown as HostServices;

  for (let i = 0; i < n; i++) {
    sessions.push(new ThreadSession(createStore(), hostFor(i), { thread: doc, version, path: 'a.json', origin: `client:${i}` }));
  }
  return {
    sessions,
    get doc() {
      return doc;
    },
  };
}

/** True when the characters of `part` appear in `whole` in order. */
function isSubsequence(part: string, whole: string): boolean {
  let i = 0;
  for (const c of whole) if (i < part.length && c === part[i]) i++;
  return i === part.length;
}

describe('two windows typing into one field', () => {
  it('converge on the host document and keep every keystroke of both, for any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 8 }), fc.array(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 8 }), async (s, typedA, typedB) => {
        const initial = exampleThread();
        const start = initial.context.systemPrompt;
        const h = sharedHost(initial, s, 2);
        const typing = [typedA, typedB].map(async (keys, i) => {
          for (const k of keys) {
            await s.schedule(Promise.resolve(), `window ${i} types ${k}`);
            h.sessions[i].edit((d) => void (d.context.systemPrompt += k), 'systemPrompt');
          }
        });
        await s.waitFor(Promise.all(typing));
        await s.waitAll();
        while (h.sessions.some((x) => !x.settled)) await s.waitAll();
        const final = h.doc.context.systemPrompt;
        for (const x of h.sessions) expect(x.thread.context.systemPrompt).toBe(final);
        expect(final.startsWith(start)).toBe(true);
        const added = final.slice(start.length);
        expect(added).toHaveLength(typedA.length + typedB.length);
        expect(isSubsequence(typedA.join(''), added)).toBe(true);
        expect(isSubsequence(typedB.join(''), added)).toBe(true);
        for (const x of h.sessions) expect(x.meta.error).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('typing at the start in one window and at the end in the other keeps both', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 6 }), async (s, n) => {
        const h = sharedHost(exampleThread(), s, 2);
        const start = h.doc.context.systemPrompt;
        const typing = [0, 1].map(async (i) => {
          for (let k = 0; k < n; k++) {
            await s.schedule(Promise.resolve());
            h.sessions[i].edit((d) => void (d.context.systemPrompt = i === 0 ? `<${d.context.systemPrompt}` : `${d.context.systemPrompt}>`), 'systemPrompt');
          }
        });
        await s.waitFor(Promise.all(typing));
        while (h.sessions.some((x) => !x.settled)) await s.waitAll();
        await s.waitAll();
        const want = `${'<'.repeat(n)}${start}${'>'.repeat(n)}`;
        expect(h.doc.context.systemPrompt).toBe(want);
        for (const x of h.sessions) expect(x.thread.context.systemPrompt).toBe(want);
      }),
      { numRuns: 200 },
    );
  });

  it("one window edits a tool call's argument a, the other argument b, both whole-object edits: both survive", async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), async (s, na, nb) => {
        const h = sharedHost(exampleThread(), s, 2);
        const mi = h.doc.context.messages.findIndex((m) => m.role === 'assistant' && m.toolCalls?.length);
        type Args = { a: number; b: number };
        const args = (t: Thread) => (t.context.messages[mi] as unknown as { toolCalls: { arguments: Args }[] }).toolCalls[0].arguments;
        const a0 = args(h.doc).a;
        const b0 = args(h.doc).b;
        const typing = [
          [na, 'a', 1],
          [nb, 'b', 2],
        ].map(async ([n, k, digit], i) => {
          for (let j = 0; j < (n as number); j++) {
            await s.schedule(Promise.resolve());
            // Like the JSON editor: the whole arguments object is replaced on each change.
            h.sessions[i].edit((d) => {
              const cur = args(d as Thread);
              (d.context.messages[mi] as unknown as { toolCalls: { arguments: Args }[] }).toolCalls[0].arguments = { ...cur, [k as string]: cur[k as 'a' | 'b'] * 10 + (digit as number) };
            }, 'args');
          }
        });
        await s.waitFor(Promise.all(typing));
        while (h.sessions.some((x) => !x.settled)) await s.waitAll();
        await s.waitAll();
        const want = { a: Number(`${a0}${'1'.repeat(na)}`), b: Number(`${b0}${'2'.repeat(nb)}`) };
        expect(args(h.doc)).toEqual(want);
        for (const x of h.sessions) expect(args(x.thread)).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });

  it('one window deletes a message while the other types into a later one: the keys land in that message, and undoing the delete keeps them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 6 }), fc.nat({ max: 6 }), async (s, keys, deleteAfter) => {
        const initial = exampleThread();
        initial.context.messages.push({ id: 'u2', role: 'user', content: [{ type: 'text', text: 'last' }] });
        const h = sharedHost(initial, s, 2);
        const n = initial.context.messages.length;
        const lastText = (t: Thread) => (t.context.messages.find((m) => m.id === 'u2')!.content[0] as { text: string }).text;
        const first = initial.context.messages[0];
        const typing = (async () => {
          for (const k of keys) {
            await s.schedule(Promise.resolve());
            h.sessions[1].edit((d) => {
              const m = d.context.messages.find((x) => x.id === 'u2')!;
              (m.content[0] as { text: string }).text += k;
            }, 'u2.text');
          }
        })();
        const deleting = (async () => {
          for (let i = 0; i < deleteAfter; i++) await s.schedule(Promise.resolve());
          const p = removeAt(h.sessions[0].thread, ['context', 'messages'], 0);
          h.sessions[0].editPatches(p.forward, p.inverse);
        })();
        await s.waitFor(Promise.all([typing, deleting]));
        while (h.sessions.some((x) => !x.settled)) await s.waitAll();
        await s.waitAll();
        const want = `last${keys.join('')}`;
        expect(h.doc.context.messages).toHaveLength(n - 1);
        expect(lastText(h.doc)).toBe(want);
        // Nothing typed went into another message.
        for (const m of h.doc.context.messages) if (m.id !== 'u2') expect(m).toEqual(initial.context.messages.find((x) => x.id === m.id));
        for (const x of h.sessions) expect(x.thread).toEqual(h.doc);
        // Undo of the delete brings the message back and keeps the other window's typing.
        expect(h.sessions[0].undo()).toBe(true);
        while (h.sessions.some((x) => !x.settled)) await s.waitAll();
        await s.waitAll();
        expect(h.doc.context.messages[0]).toEqual(first);
        expect(lastText(h.doc)).toBe(want);
        for (const x of h.sessions) expect(x.thread).toEqual(h.doc);
      }),
      { numRuns: 200 },
    );
  });

  it("undo in one window takes out only its own typing, keeping what the other window typed in the same field meanwhile", async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.boolean(), async (s, waitToSeal) => {
        const h = sharedHost(exampleThread(), s, 2);
        const start = h.doc.context.systemPrompt;
        const settle = async () => {
          while (h.sessions.some((x) => !x.settled)) await s.waitAll();
          await s.waitAll();
        };
        h.sessions[0].edit((d) => void (d.context.systemPrompt += ' [A end]'), 'systemPrompt');
        await settle();
        if (waitToSeal) h.sessions[0].edit((d) => void (d.title = 'renamed'), 'title');
        await settle();
        h.sessions[1].edit((d) => void (d.context.systemPrompt = `[B start] ${d.context.systemPrompt}`), 'systemPrompt');
        await settle();
        if (waitToSeal) expect(h.sessions[0].undo()).toBe(true); // the rename
        await settle();
        expect(h.sessions[0].undo()).toBe(true);
        await settle();
        expect(h.doc.context.systemPrompt).toBe(`[B start] ${start}`);
        for (const x of h.sessions) expect(x.thread.context.systemPrompt).toBe(`[B start] ${start}`);
        expect(h.sessions[0].meta.error).toBeUndefined();
        // And redo puts it back at the end.
        expect(h.sessions[0].redo()).toBe(true);
        await settle();
        expect(h.doc.context.systemPrompt).toBe(`[B start] ${start} [A end]`);
      }),
      { numRuns: 50 },
    );
  });
});
