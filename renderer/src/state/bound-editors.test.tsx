// @vitest-environment jsdom
/**
 * Editors bound to the thread's `Y.Text` (ui/y-binding.ts, docs/architecture.md#multi-window-editing):
 * two windows, each a ThreadSession with a bound CodeEditor, type into one message at once and
 * end showing the same text as the host, with every typed character once and only the deleted
 * ones gone; another window's typing moves the cursor with the text; Mod-Z in an editor is the
 * window's undo (its own typing only, typing merged into one step); a read-only thread refuses
 * typing; an editor binds again when its field is made again.
 *
 * The host is an in-memory stand-in for main/core/store/thread-ydoc.ts: a `Y.Doc` that applies
 * each window's `thread.update` and relays it to the other window, every message held in one
 * FIFO queue per direction per window until the test delivers it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import * as Y from 'yjs';
import { createStore } from 'jotai';
import { EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { CodeEditor } from '../ui/code-editor';
import { ThreadSession } from './thread-session';
import { fromBase64, toBase64 } from './thread-sync';
import type { TextField } from '../ui/text-binding';
import type { HostServices } from '../host/types';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadUpdate } from '../../../shared/protocol/envelopes';
import { findText, newThreadDoc, threadTypes, yToThread } from '../../../shared/thread/y-thread';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const FIELD: TextField = { messageId: 'field', part: 0, field: 'text' };
const noExtensions: never[] = [];
// As the prompt editors: no history of the editor's own.
const setup = { lineNumbers: false, foldGutter: false, history: false };

function thread(text: string): Thread {
  const msg = (id: string, t: string) => ({ id, role: 'user' as const, content: [{ type: 'text' as const, text: t }] });
  return {
    version: 1,
    id: '00000000-0000-4000-8000-00000000b003',
    title: 'bound editors',
    model: { provider: 'scripted', id: 'scripted', params: {} },
    context: { systemPrompt: 'You are careful.', tools: [], messages: [msg('first', 'first'), msg('field', text), msg('last', 'last')] },
    runRefs: [],
  };
}

/** One window: its session, its editor of `field`, and the React root the editor is in. */
interface Window {
  session: ThreadSession;
  root: Root;
  el: HTMLElement;
  view(): EditorView;
  /** Render the editor again, bound to what the session gives for `field` now. */
  render(field?: TextField): void;
}

const roots: Root[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) act(() => r.unmount());
  document.body.innerHTML = '';
});

/** A host with two windows on `initial`, each with a bound editor of `field`. */
function twoWindows(initial: Thread, field: TextField = FIELD, now: () => number = () => 0) {
  const doc = newThreadDoc(initial);
  const windows: Window[] = [];
  const up: (() => void)[][] = [[], []];
  const down: (() => void)[][] = [[], []];
  const opened = () => ({ thread: yToThread(doc), version: 0, path: 'a.json', yjs: { update: toBase64(Y.encodeStateAsUpdate(doc)), stateVector: toBase64(Y.encodeStateVector(doc)), docId: doc.guid, version: 0 } });
  const hostFor = (client: number): HostServices =>
    ({
      presentational: false,
      call: (method: string, params: { update: string }) => {
        if (method === 'thread.open') return Promise.resolve(opened());
        return new Promise((resolve) =>
          up[client].push(() => {
            Y.applyUpdate(doc, fromBase64(params.update), client);
            const push: ThreadUpdate = { v: 1, type: 'thread_update', threadId: initial.id, docId: doc.guid, update: params.update, origin: `client:${client}` };
            down[1 - client].push(() => windows[1 - client].session.applyRemote(push));
            down[client].push(() => resolve({ version: 1 }));
          }),
        );
      },
      pushes: () => ({ [Symbol.asyncIterator]: async function* () {} }),
    }) as unknown as HostServices;
  for (let i = 0; i < 2; i++) {
    const session = new ThreadSession(createStore(), hostFor(i), opened(), { now });
    const el = document.createElement('div');
    document.body.append(el);
    const root = createRoot(el);
    roots.push(root);
    const w: Window = {
      session,
      root,
      el,
      view: () => EditorView.findFromDOM(el.querySelector('.cm-editor') as HTMLElement)!,
      render: (f = field) => act(() => root.render(<CodeEditor value="" bound={session.boundText(f)} theme="light" extensions={noExtensions} basicSetup={setup} />)),
    };
    w.render();
    windows.push(w);
  }
  /** Deliver the next message from window `w` to the host (`up`) or from the host to `w`. */
  const deliver = (w: number, dir: 'up' | 'down') => (dir === 'up' ? up : down)[w].shift()?.();
  const flush = () => {
    while (up.some((q) => q.length) || down.some((q) => q.length)) {
      for (let w = 0; w < 2; w++) {
        deliver(w, 'up');
        deliver(w, 'down');
      }
    }
  };
  return { doc, windows, deliver, flush };
}

/** The person types `text` at `at` in `view`, the cursor after it. */
function type(view: EditorView, at: number, text: string): void {
  view.dispatch({ changes: { from: at, insert: text }, selection: EditorSelection.cursor(at + text.length), userEvent: 'input.type' });
}

/** The person presses Backspace before `at` in `view`. */
function backspace(view: EditorView, at: number): void {
  view.dispatch({ changes: { from: at - 1, to: at }, selection: EditorSelection.cursor(at - 1), userEvent: 'delete.backward' });
}

/** Ctrl (Mod here: jsdom is not a Mac) and Z, with Shift or not, pressed in `view`, as a browser reports it. */
function modZ(view: EditorView, shift = false): void {
  view.contentDOM.dispatchEvent(new KeyboardEvent('keydown', { key: shift ? 'Z' : 'z', keyCode: 90, ctrlKey: true, shiftKey: shift, bubbles: true, cancelable: true }));
}

const messageText = (t: Thread) => (t.context.messages.find((m) => m.id === 'field')!.content[0] as { text: string }).text;

describe('editors bound to the Y.Text of their field', () => {
  it('two windows typing and deleting in one message at once converge, every character kept once and only the deleted ones gone', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('key' as const), w: fc.integer({ min: 0, max: 1 }), at: fc.nat() }),
      fc.record({ kind: fc.constant('backspace' as const), w: fc.integer({ min: 0, max: 1 }), at: fc.nat() }),
      fc.record({ kind: fc.constant('deliver' as const), w: fc.integer({ min: 0, max: 1 }), dir: fc.constantFrom('up' as const, 'down' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const initial = 'abcdefgh';
        const h = twoWindows(thread(initial));
        const typed: string[] = [];
        const deleted = new Set<string>();
        let next = 0x4e00;
        for (const o of ops) {
          if (o.kind === 'deliver') h.deliver(o.w, o.dir);
          else {
            const view = h.windows[o.w].view();
            const len = view.state.doc.length;
            if (o.kind === 'key') {
              const ch = String.fromCharCode(next++);
              typed.push(ch);
              type(view, o.at % (len + 1), ch);
            } else if (len > 0) {
              const at = (o.at % len) + 1;
              deleted.add(view.state.doc.sliceString(at - 1, at));
              backspace(view, at);
            }
          }
        }
        h.flush();
        const host = findText(threadTypes(h.doc).messages, 'field')!.toString();
        for (const w of h.windows) {
          expect(w.view().state.doc.toString()).toBe(host);
          expect(messageText(w.session.thread)).toBe(host); // the thread React renders follows
        }
        const expected = [...initial, ...typed].filter((c) => !deleted.has(c)).sort();
        expect([...host].sort()).toEqual(expected);
        for (const r of roots.splice(0)) act(() => r.unmount());
        document.body.innerHTML = '';
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
