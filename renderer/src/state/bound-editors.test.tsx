// @vitest-environment jsdom
/**
 * Editors bound to the thread's `Y.Text` (ui/y-binding.ts, docs/architecture.md#multi-window-editing):
 * two windows, each a ThreadSession with a bound CodeEditor, type into one message at once and
 * end showing the same text as the host, with every typed character once and only the deleted
 * ones gone; another window's typing moves the cursor with the text; Mod-Z in an editor is the
 * window's undo (its own typing only, typing merged into one step); a read-only thread refuses
 * typing; an editor binds again when its field is made again.
 *
 * The two windows and their host: bound-editors.harness.tsx.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EditorSelection } from '@codemirror/state';
import type { Thread } from '../../../shared/thread/schema';
import { findText, threadTypes, yToThread } from '../../../shared/thread/y-thread';
import { FIELD, modZ, playTyping, thread, twoWindows, type, typingOps, unmountAll } from './bound-editors.harness';

afterEach(unmountAll);

const messageText = (t: Thread) => (t.context.messages.find((m) => m.id === 'field')!.content[0] as { text: string }).text;

describe('editors bound to the Y.Text of their field', () => {
  it('two windows typing and deleting in one message at once converge, every character kept once and only the deleted ones gone', () => {
    fc.assert(
      fc.property(typingOps, (ops) => {
        const initial = 'abcdefgh';
        const h = twoWindows(thread(initial));
        const expected = playTyping(h, initial, ops);
        const host = findText(threadTypes(h.doc).messages, 'field')!.toString();
        for (const w of h.windows) {
          expect(w.view().state.doc.toString()).toBe(host);
          expect(messageText(w.session.thread)).toBe(host); // the thread React renders follows
        }
        expect([...host].sort()).toEqual(expected);
        unmountAll();
      }),
      { numRuns: 100 },
    );
  });

  it("shows another window's typing around the cursor, which stays where the person left it", () => {
    const h = twoWindows(thread('Hello world'));
    const [a, b] = h.windows;
    a.view().dispatch({ selection: EditorSelection.cursor(5) }); // after "Hello"
    type(b.view(), 0, 'Oh, ');
    type(b.view(), b.view().state.doc.length, '!');
    h.flush();
    expect(a.view().state.doc.toString()).toBe('Oh, Hello world!');
    expect(a.view().state.selection.main.head).toBe(9); // still after "Hello"
    type(a.view(), 9, ' there');
    h.flush();
    expect(b.view().state.doc.toString()).toBe('Oh, Hello there world!');
    expect(yToThread(h.doc).context.messages[1]).toEqual(a.session.thread.context.messages[1]);
  });

  it("Mod-Z in an editor undoes this window's typing only, as the Undo button does; typing within 800 ms is one step, a pause another", () => {
    let now = 0;
    const h = twoWindows(thread('Hello'), FIELD, () => now);
    const [a, b] = h.windows;
    for (const ch of ' abc') {
      now += 100;
      type(a.view(), a.view().state.doc.length, ch);
    }
    now += 2000; // a pause: a new step
    type(a.view(), a.view().state.doc.length, '.');
    type(b.view(), 0, 'XY ');
    h.flush();
    expect(a.view().state.doc.toString()).toBe('XY Hello abc.');
    expect(a.session.meta.canUndo).toBe(true);
    expect(b.session.meta.canUndo).toBe(true);
    modZ(a.view());
    h.flush();
    expect(b.view().state.doc.toString()).toBe('XY Hello abc');
    modZ(a.view());
    h.flush();
    // This window's typing is gone, the other window's stays.
    expect(a.view().state.doc.toString()).toBe('XY Hello');
    expect(b.view().state.doc.toString()).toBe('XY Hello');
    expect(a.session.meta.canUndo).toBe(false);
    modZ(a.view(), true); // Mod-Shift-Z: redo
    h.flush();
    expect(findText(threadTypes(h.doc).messages, 'field')!.toString()).toBe('XY Hello abc');
    // The session's undo (the Undo button) takes the same step back.
    expect(a.session.undo()).toBe(true);
    h.flush();
    expect(b.view().state.doc.toString()).toBe('XY Hello');
    // The other window's undo takes out its own typing.
    modZ(b.view());
    h.flush();
    expect(a.view().state.doc.toString()).toBe('Hello');
  });

  it('refuses typing while a run runs, and still shows what comes in', () => {
    const h = twoWindows(thread('Hello'));
    const [a, b] = h.windows;
    a.session.setRunning('r1');
    type(a.view(), 5, '!'); // refused at once, though the editor's read-only prop is not set
    expect(a.view().state.doc.toString()).toBe('Hello');
    modZ(a.view());
    type(b.view(), 0, '> ');
    h.flush();
    expect(a.view().state.doc.toString()).toBe('> Hello');
    expect(findText(threadTypes(h.doc).messages, 'field')!.toString()).toBe('> Hello');
  });

  it('binds again when the field is made again: an undone delete of the message, a reload', async () => {
    const h = twoWindows(thread('Hello'));
    const [a, b] = h.windows;
    const first = a.session.boundText(FIELD)!;
    a.session.edit((d) => void d.context.messages.splice(1, 1));
    h.flush();
    expect(a.session.boundText(FIELD)).toBeUndefined();
    a.session.undo();
    h.flush();
    const again = a.session.boundText(FIELD)!;
    expect(again.ytext).not.toBe(first.ytext); // an undone delete brings a new Y.Map
    a.render();
    b.render();
    const view = a.view();
    type(view, 5, ' again');
    h.flush();
    expect(b.view().state.doc.toString()).toBe('Hello again');
    expect(findText(threadTypes(h.doc).messages, 'field')!.toString()).toBe('Hello again');
    // A reload: a new document, so new texts; the same view binds to the new one.
    await a.session.reload();
    a.render();
    expect(a.view()).toBe(view);
    type(view, 0, '1 ');
    h.flush();
    expect(b.view().state.doc.toString()).toBe('1 Hello again');
    // The system prompt binds the same way.
    a.render('systemPrompt');
    type(a.view(), 0, 'Be brief. ');
    h.flush();
    expect(yToThread(h.doc).context.systemPrompt).toBe('Be brief. You are careful.');
  });
});
