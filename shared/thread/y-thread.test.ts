/**
 * The thread ↔ Yjs mapping (y-thread.ts), Immer patches carried into it (y-patches.ts) and its
 * events read back as patches (y-events.ts): for random threads and random edits, the document
 * and the JSON never disagree, on the side that made the change and on a peer that receives it.
 */
import * as Y from 'yjs';
import fc from 'fast-check';
import { applyPatches, enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';
import { describe, expect, it } from 'vitest';
import type { Thread } from './schema';
import type { Message, ToolCall } from './messages';
import { findText, newThreadDoc, threadTypes, yToThread } from './y-thread';
import { applyPatchesToY, diffIntoText } from './y-patches';
import { observePatches } from './y-events';
import { sumTool, threadWith, userMessage } from '../../tests/support/threads';

enablePatches();

const text = fc.string({ maxLength: 12 });
const image = fc.constantFrom('iVBORw0KGgo=', 'R0lGODlh').map((data) => ({ type: 'image' as const, mimeType: 'image/png', data }));
/** A tool call's result: text and image parts, an error or not, typed or not. */
const output = fc.record(
  { content: fc.array(fc.oneof(fc.record({ type: fc.constant('text' as const), text }), image), { maxLength: 3 }), isError: fc.boolean(), typed: fc.constant(true) },
  { requiredKeys: ['content', 'isError'] },
);
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ id: fc.uuid(), role: fc.constant('user' as const), content: fc.array(fc.record({ type: fc.constant('text' as const), text }), { minLength: 1, maxLength: 3 }) }),
  fc.record({
    id: fc.uuid(),
    role: fc.constant('assistant' as const),
    content: fc.tuple(text, text).map(([a, b]) => [{ type: 'thinking' as const, thinking: a }, { type: 'text' as const, text: b }]),
    toolCalls: fc.array(
      fc.record(
        { id: fc.uuid(), name: fc.constant('get_sum'), arguments: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.oneof(fc.integer(), text)), output },
        { requiredKeys: ['id', 'name', 'arguments'] },
      ),
      { maxLength: 2 },
    ),
  }),
);

const thread: fc.Arbitrary<Thread> = fc.record({ prompt: text, messages: fc.array(message, { maxLength: 5 }) }).map(({ prompt, messages }) => {
  const t = threadWith({ systemPrompt: prompt, messages, tools: [sumTool] });
  return { ...t, context: { ...t.context, variables: { city: 'Paris' } } };
});

type Recipe = (d: Draft<Thread>) => void;
const pick = (n: number, r: number) => (n ? r % n : 0);

/** One random edit of the kinds the playground, runs and files make. */
const edit: fc.Arbitrary<Recipe> = fc.tuple(fc.nat(1000), fc.nat(1000), text, message).chain(([a, b, s, m]) =>
  fc.constantFrom<Recipe>(
    (d) => void (d.context.systemPrompt = d.context.systemPrompt.slice(0, pick(d.context.systemPrompt.length + 1, a)) + s),
    (d) => {
      const msg = d.context.messages[pick(d.context.messages.length, a)];
      const part = msg?.content[pick(msg.content.length, b)];
      if (part?.type === 'text') part.text = s + part.text.slice(1);
      if (part?.type === 'thinking') part.thinking += s;
    },
    (d) => void d.context.messages.splice(pick(d.context.messages.length, a), 1),
    (d) => void d.context.messages.splice(pick(d.context.messages.length + 1, a), 0, m),
    (d) => void d.context.messages.splice(pick(d.context.messages.length, a)),
    (d) => {
      const i = pick(d.context.messages.length, a);
      if (d.context.messages[i]) d.context.messages[i] = { ...m, id: d.context.messages[i].id } as Message;
    },
    (d) => {
      const msg = d.context.messages[pick(d.context.messages.length, a)];
      const call = msg?.role === 'assistant' ? msg.toolCalls?.[0] : undefined;
      if (call) call.arguments[s || 'x'] = b;
      if (call && b % 3 === 0) call.output = { content: [{ type: 'text', text: s }], isError: false };
    },
    (d) => {
      // A result edited as the tool call card does: its text, its error flag, an image added.
      const msg = d.context.messages[pick(d.context.messages.length, a)];
      const out = msg?.role === 'assistant' ? msg.toolCalls?.[pick(msg.toolCalls.length, b)]?.output : undefined;
      if (!out) return;
      const tp = out.content.find((p) => p.type === 'text') as { text: string } | undefined;
      if (b % 3 === 0 && tp) tp.text = s + tp.text.slice(2);
      else if (b % 3 === 1) out.isError = !out.isError;
      else out.content.push({ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' });
    },
    (d) => void (d.model.params = { ...d.model.params, temperature: b / 1000 }),
    (d) => void (d.context.variables = { ...d.context.variables, [`v${a % 3}`]: s }),
    (d) => void (d.title = s),
    (d) => void d.runRefs.push({ id: `run-${a}`, startedAt: 1, status: 'done', file: `runs/${a}.json` } as never),
    (d) => {
      const t = d.context.messages[pick(d.context.messages.length, a)];
      if (t) d.context.messages.push(d.context.messages.splice(pick(d.context.messages.length, a), 1)[0]);
    },
  ),
);

describe('thread ↔ Yjs', () => {
  it('a thread comes back from its document unchanged', () => {
    fc.assert(fc.property(thread, (t) => {
        expect(yToThread(newThreadDoc(t))).toEqual(t);
      }), { numRuns: 200 });
  });

  it('Immer patches carried into the document (patch by patch, or arrays reconciled whole) give the thread the patches give, here and on a peer that reads its events', () => {
    fc.assert(
      fc.property(thread, fc.array(edit, { minLength: 1, maxLength: 6 }), fc.boolean(), (t, recipes, whole) => {
        const doc = newThreadDoc(t);
        const peer = new Y.Doc();
        Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc));
        let peerJson = yToThread(peer);
        observePatches(peer, (patches) => void (peerJson = applyPatches(peerJson, patches)));
        doc.on('update', (u: Uint8Array) => Y.applyUpdate(peer, u));
        let json = t;
        for (const recipe of recipes) {
          const [next, patches] = produceWithPatches(json, recipe);
          const prev = json;
          json = next;
          doc.transact(() => applyPatchesToY(doc, patches, whole ? prev : undefined, whole ? json : undefined));
          expect(yToThread(doc)).toEqual(json);
          expect(peerJson).toEqual(json);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("the host's JSON follows a window's edits made in Yjs (typing, deleting a message, setting an argument)", () => {
    const op = fc.tuple(fc.nat(3), fc.nat(1000), fc.nat(1000), text);
    fc.assert(
      fc.property(thread, fc.array(op, { minLength: 1, maxLength: 10 }), (t, ops) => {
        const host = newThreadDoc(t);
        const win = new Y.Doc();
        Y.applyUpdate(win, Y.encodeStateAsUpdate(host));
        let json = t;
        observePatches(host, (patches) => void (json = applyPatches(json, patches)));
        win.on('update', (u: Uint8Array) => Y.applyUpdate(host, u));
        const y = threadTypes(win);
        for (const [kind, a, b, s] of ops) {
          const msgs = y.messages.toArray();
          const m = msgs[pick(msgs.length, a)];
          win.transact(() => {
            if (kind === 0) {
              const tx = (m && findText(y.messages, m.get('id') as string, pick((m.get('content') as Y.Array<unknown>).length, b))) ?? y.systemPrompt;
              const at = pick(tx.length, b);
              const n = Math.min(a % 3, tx.length - at);
              if (n > 0) tx.delete(at, n);
              tx.insert(pick(tx.length + 1, a), s);
            } else if (kind === 1 && m) y.messages.delete(pick(msgs.length, a), 1);
            else if (kind === 2) (m?.get('toolCalls') as Y.Array<Y.Map<Y.Map<unknown>>> | undefined)?.get(0)?.get('arguments')?.set(s || 'k', b);
            else y.context.set('scenario', s);
          });
          expect(json).toEqual(yToThread(host));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a replaced text is diffed: what a peer typed elsewhere in it meanwhile stays', () => {
    fc.assert(
      fc.property(text, text, fc.string({ minLength: 1, maxLength: 12 }), text, (pre, mid, post, typed) => {
        const host = new Y.Doc();
        const t = host.getText('t');
        t.insert(0, pre + mid + post);
        const peer = new Y.Doc();
        Y.applyUpdate(peer, Y.encodeStateAsUpdate(host));
        // The host replaces `mid` (a file edited outside) while the peer types at the end.
        diffIntoText(t, pre + 'X' + post);
        peer.getText('t').insert(peer.getText('t').length, typed);
        Y.applyUpdate(host, Y.encodeStateAsUpdate(peer));
        Y.applyUpdate(peer, Y.encodeStateAsUpdate(host));
        expect(t.toString()).toBe(pre + 'X' + post + typed);
        expect(peer.getText('t').toString()).toBe(t.toString());
      }),
      { numRuns: 150 },
    );
  });

  it("removing an earlier message (Immer: replaces and a remove) is one Yjs delete: a peer's typing in a later message stays", () => {
    const t = threadWith({ messages: [userMessage('first', 'm0'), userMessage('typed in', 'm1'), userMessage('last', 'm2')] });
    const host = newThreadDoc(t);
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(host));
    const [next, patches] = produceWithPatches(t, (d) => void d.context.messages.splice(0, 1));
    host.transact(() => applyPatchesToY(host, patches, t, next));
    findText(threadTypes(peer).messages, 'm1')!.insert(8, ' here');
    Y.applyUpdate(host, Y.encodeStateAsUpdate(peer));
    expect(yToThread(host).context.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(['typed in here', 'last']);
  });

  it("a tool call's result is a map whose text is a Y.Text: the host rewriting the result whole (a run, a file changed outside) keeps what a peer typed into it", () => {
    const call: ToolCall = { id: 'c1', name: 'get_sum', arguments: { a: 1 }, output: { content: [{ type: 'text' as const, text: 'sum is 3' }, { type: 'image' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=' }], isError: false } };
    const t = threadWith({ messages: [userMessage('add', 'm0'), { id: 'a1', role: 'assistant', content: [], toolCalls: [call] } as Message], tools: [sumTool] });
    const host = newThreadDoc(t);
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(host));
    const peerOutput = (threadTypes(peer).messages.get(1).get('toolCalls') as Y.Array<Y.Map<unknown>>).get(0).get('output') as Y.Map<unknown>;
    const peerText = ((peerOutput.get('content') as Y.Array<Y.Map<unknown>>).get(0).get('text')) as Y.Text;
    expect(peerText).toBeInstanceOf(Y.Text);
    peerText.insert(8, ' (checked)');
    // The host writes the whole output again, its text changed at the start and the image kept.
    const [next, patches] = produceWithPatches(t, (d) => {
      const c = (d.context.messages[1] as { toolCalls: ToolCall[] }).toolCalls[0];
      c.output = { content: [{ type: 'text', text: 'The sum is 3' }, c.output!.content[1]], isError: true };
    });
    host.transact(() => applyPatchesToY(host, patches, t, next));
    Y.applyUpdate(host, Y.encodeStateAsUpdate(peer));
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(host));
    const out = (yToThread(host).context.messages[1] as { toolCalls: ToolCall[] }).toolCalls[0].output;
    expect(out).toEqual({ content: [{ type: 'text', text: 'The sum is 3 (checked)' }, call.output!.content[1]], isError: true });
    expect(yToThread(peer)).toEqual(yToThread(host));
  });

  it('a patch whose path is not in the document is refused, naming it', () => {
    const doc = newThreadDoc(threadWith({ messages: [] }));
    const bad: Patch[] = [{ op: 'replace', path: ['context', 'messages', 3, 'content', 0, 'text'], value: 'x' }];
    expect(() => applyPatchesToY(doc, bad)).toThrow(/no index 3 in an array of 0/);
  });
});
