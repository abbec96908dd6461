// @vitest-environment jsdom
/**
 * A tool call's result edited in two windows at once (docs/architecture.md#multi-window-editing):
 * the output is a `Y.Map` whose text part is a `Y.Text`, and the result editor is bound to it, so
 * both windows' typing is kept (before, the output was one plain value: the last window to write
 * it won and the other's typing was lost). Typing into a result a tool run produced makes it a
 * typed result (a template) in the same undo step; marking it an error sets only that field.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as Y from 'yjs';
import type { Thread } from '../../../shared/thread/schema';
import type { ToolCall } from '../../../shared/thread/messages';
import { threadTypes, yToThread } from '../../../shared/thread/y-thread';
import { modZ, playTyping, thread, twoWindows, type, typingOps, unmountAll } from './bound-editors.harness';
import type { TextField } from '../ui/text-binding';

afterEach(unmountAll);

const RESULT: TextField = { messageId: 'a1', callId: 'call_1', field: 'result' };

/** A thread whose assistant message `a1` made tool call `call_1`, its result `result` (a tool run's: not typed). */
function withResult(result: string, more: Partial<NonNullable<ToolCall['output']>> = {}): Thread {
  const t = thread('Look it up');
  t.context.tools = [{ name: 'lookup', description: 'Look a thing up', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }] as never;
  t.context.messages.push({
    id: 'a1',
    role: 'assistant',
    content: [],
    toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { q: 'weather' }, output: { content: [{ type: 'text', text: result }], isError: false, ...more } }],
  } as never);
  return t;
}

const callOf = (t: Thread) => (t.context.messages.find((m) => m.id === 'a1') as { toolCalls: ToolCall[] }).toolCalls[0];
const resultOf = (t: Thread) => (callOf(t).output!.content[0] as { text: string }).text;
/** The result's text in the host's document. */
const hostResult = (doc: Y.Doc) => resultOf(yToThread(doc));

describe('a tool result edited in two windows', () => {
  it('is a Y.Text in the document: two windows typing and deleting in it at once converge, every character kept once', () => {
    fc.assert(
      fc.property(typingOps, (ops) => {
        const initial = 'sunY,21C'; // every character once, so a deleted one is known by itself
        const h = twoWindows(withResult(initial, { typed: true }), RESULT);
        const expected = playTyping(h, initial, ops);
        const host = hostResult(h.doc);
        for (const w of h.windows) {
          expect(w.view().state.doc.toString()).toBe(host);
          expect(resultOf(w.session.thread)).toBe(host); // the thread React renders follows
        }
        expect([...host].sort()).toEqual(expected);
        unmountAll();
      }),
      { numRuns: 100 },
    );
  });

  it('keeps both windows\' typing when they type into the same result before either hears from the other', () => {
    const h = twoWindows(withResult('sunny', { typed: true }), RESULT);
    const [a, b] = h.windows;
    type(a.view(), 0, 'Today: ');
    type(b.view(), 5, ', 21 C');
    h.flush();
    expect(hostResult(h.doc)).toBe('Today: sunny, 21 C');
    expect(a.view().state.doc.toString()).toBe('Today: sunny, 21 C');
    expect(resultOf(b.session.thread)).toBe('Today: sunny, 21 C');
    const output = (threadTypes(h.doc).messages.get(3).get('toolCalls') as Y.Array<Y.Map<unknown>>).get(0).get('output');
    expect(output).toBeInstanceOf(Y.Map);
  });

  it("typing into a tool run's result makes it a typed result (a template), and one Mod-Z takes out both", () => {
    const h = twoWindows(withResult('{"temp": 21}'), RESULT);
    const [a] = h.windows;
    expect(callOf(a.session.thread).output!.typed).toBeUndefined();
    type(a.view(), 12, ' (C)');
    h.flush();
    expect(callOf(yToThread(h.doc)).output).toEqual({ content: [{ type: 'text', text: '{"temp": 21} (C)' }], isError: false, typed: true });
    modZ(a.view());
    h.flush();
    expect(callOf(yToThread(h.doc)).output).toEqual({ content: [{ type: 'text', text: '{"temp": 21}' }], isError: false });
    expect(a.view().state.doc.toString()).toBe('{"temp": 21}');
  });

  it('an editor that binds to a result when it arrives (a tool run) does not count that as typing', () => {
    const t = withResult('');
    delete callOf(t).output;
    const h = twoWindows(t, RESULT);
    const [a, b] = h.windows;
    expect(a.session.boundText(RESULT)).toBeUndefined();
    // As a run's result lands: an output no one typed.
    a.session.edit((d) => void (callOf(d as Thread).output = { content: [{ type: 'text', text: 'The sum is 5.' }], isError: false }));
    h.flush();
    a.render();
    b.render();
    h.flush();
    expect(b.view().state.doc.toString()).toBe('The sum is 5.');
    expect(callOf(yToThread(h.doc)).output!.typed).toBeUndefined();
    expect(a.session.meta.canUndo).toBe(true);
    a.session.undo(); // one step takes the result out
    h.flush();
    expect(callOf(yToThread(h.doc)).output).toBeUndefined();
  });

  it("marking the result an error in one window keeps what the other window is typing into it", () => {
    const h = twoWindows(withResult('timeout', { typed: true }), RESULT);
    const [a, b] = h.windows;
    type(b.view(), 7, ' after 30 s');
    // As the card's "Mark as error" does: only the output's isError.
    a.session.edit((d) => void (callOf(d as Thread).output!.isError = true), 'result.call_1.error');
    h.flush();
    expect(callOf(yToThread(h.doc)).output).toEqual({ content: [{ type: 'text', text: 'timeout after 30 s' }], isError: true, typed: true });
    expect(callOf(a.session.thread).output).toEqual(callOf(b.session.thread).output);
  });

  it('a result with two text parts, or a call without one, has no bound text (its editor edits it whole)', () => {
    const two = twoWindows(withResult('one'), RESULT);
    two.windows[0].session.edit((d) => void callOf(d as Thread).output!.content.push({ type: 'text', text: 'two' }));
    two.flush();
    expect(two.windows[0].session.boundText(RESULT)).toBeUndefined();
    unmountAll();
    const none = twoWindows(thread('no calls'), 'systemPrompt');
    expect(none.windows[0].session.boundText(RESULT)).toBeUndefined();
  });
});
