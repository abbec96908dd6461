/**
 * Two windows with editors bound to the thread's `Y.Text` (ui/y-binding.ts), for the bound
 * editor tests. The host is an in-memory stand-in for main/core/store/thread-ydoc.ts: a `Y.Doc`
 * that applies each window's `thread.update` and relays it to the other window, every message
 * held in one FIFO queue per direction per window until the test delivers it.
 */
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
import { newThreadDoc, yToThread } from '../../../shared/thread/y-thread';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export const FIELD: TextField = { messageId: 'field', part: 0, field: 'text' };
const noExtensions: never[] = [];
// As the prompt editors: no history of the editor's own.
const setup = { lineNumbers: false, foldGutter: false, history: false };

/** A thread of three user messages, the middle one (`field`) holding `text`. */
export function thread(text: string): Thread {
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
export interface Window {
  session: ThreadSession;
  root: Root;
  el: HTMLElement;
  view(): EditorView;
  /** Render the editor again, bound to what the session gives for `field` now. */
  render(field?: TextField): void;
}

/** Every React root the windows made; {@link unmountAll} after each test. */
export const roots: Root[] = [];

/** Unmount every window's editor (after each test, and between property runs). */
export function unmountAll(): void {
  for (const r of roots.splice(0)) act(() => r.unmount());
  document.body.innerHTML = '';
}

/** A host with two windows on `initial`, each with a bound editor of `field`. */
export function twoWindows(initial: Thread, field: TextField = FIELD, now: () => number = () => 0) {
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
export function type(view: EditorView, at: number, text: string): void {
  view.dispatch({ changes: { from: at, insert: text }, selection: EditorSelection.cursor(at + text.length), userEvent: 'input.type' });
}

/** The person presses Backspace before `at` in `view`. */
export function backspace(view: EditorView, at: number): void {
  view.dispatch({ changes: { from: at - 1, to: at }, selection: EditorSelection.cursor(at - 1), userEvent: 'delete.backward' });
}

/** Ctrl (Mod here: jsdom is not a Mac) and Z, with Shift or not, pressed in `view`, as a browser reports it. */
export function modZ(view: EditorView, shift = false): void {
  view.contentDOM.dispatchEvent(new KeyboardEvent('keydown', { key: shift ? 'Z' : 'z', keyCode: 90, ctrlKey: true, shiftKey: shift, bubbles: true, cancelable: true }));
}


/** One step of two people typing at once: a key or a Backspace in window `w`, or one message delivered. */
export type TypingOp = { kind: 'key' | 'backspace'; w: number; at: number } | { kind: 'deliver'; w: number; dir: 'up' | 'down' };

/** Random interleavings of typing, Backspace and delivery in two windows (for fast-check). */
export const typingOps: fc.Arbitrary<TypingOp[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constantFrom('key' as const, 'backspace' as const), w: fc.integer({ min: 0, max: 1 }), at: fc.nat() }),
    fc.record({ kind: fc.constant('deliver' as const), w: fc.integer({ min: 0, max: 1 }), dir: fc.constantFrom('up' as const, 'down' as const) }),
  ),
  { minLength: 1, maxLength: 40 },
);

/**
 * Play `ops` in the windows of `h` (each key a new character, never typed before), deliver
 * everything, and return the characters that must be left, sorted: `initial`'s (each once) and
 * the typed ones, without the deleted ones.
 */
export function playTyping(h: ReturnType<typeof twoWindows>, initial: string, ops: TypingOp[]): string[] {
  const typed: string[] = [];
  const deleted = new Set<string>();
  let next = 0x4e00;
  for (const o of ops) {
    if (o.kind === 'deliver') {
      h.deliver(o.w, o.dir);
      continue;
    }
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
  h.flush();
  return [...initial, ...typed].filter((c) => !deleted.has(c)).sort();
}
