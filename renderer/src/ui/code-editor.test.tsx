// @vitest-environment jsdom
/**
 * The editor under every prompt and JSON field: a new value is applied as the smallest change
 * (the person's cursor stays where it was), a keystroke reports the text before and after it,
 * and applying a value is never reported back as the person's edit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { CodeEditor } from './code-editor';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

const noExtensions: never[] = []; // stable, as the editors pass theirs
function render(value: string, onChange: (t: string, prev: string) => void) {
  act(() => root!.render(<CodeEditor value={value} onChange={onChange} theme="light" extensions={noExtensions} basicSetup={{ lineNumbers: false }} />));
}

describe('CodeEditor', () => {
  it('applies a new value around the cursor, and reports only the person\'s edits with the text before them', () => {
    const el = document.createElement('div');
    document.body.append(el);
    root = createRoot(el);
    const changes: [string, string][] = [];
    const onChange = (t: string, prev: string) => changes.push([t, prev]);
    render('Hello world', onChange);
    const view = EditorView.findFromDOM(el.querySelector('.cm-editor') as HTMLElement)!;
    expect(view.state.doc.toString()).toBe('Hello world');
    // The person types "!" at the end; the cursor is after it.
    act(() => view.dispatch({ changes: { from: 11, insert: '!' }, selection: EditorSelection.cursor(12), userEvent: 'input.type' }));
    expect(changes).toEqual([['Hello world!', 'Hello world']]);
    render('Hello world!', onChange); // the echo of that edit: nothing to apply
    // Another window put "Oh, " at the start: applied as that insertion, the cursor moves with its text.
    render('Oh, Hello world!', onChange);
    expect(view.state.doc.toString()).toBe('Oh, Hello world!');
    expect(view.state.selection.main.head).toBe(16);
    expect(changes).toHaveLength(1); // a value applied is not an edit of the person's
  });

  it('turns read-only and back without reconfiguring, its gutters and plugins kept', async () => {
    // A thread turns read-only while it runs: every editor follows, and making each one's
    // plugins again (gutters, highlighter) put the whole page's editors into one long task.
    const el = document.createElement('div');
    document.body.append(el);
    root = createRoot(el);
    const setup = { lineNumbers: true, foldGutter: true };
    // Counts the transactions that changed the editor's configuration (every editor resolving its
    // whole configuration again is the cost this avoids).
    let reconfigured = 0;
    const extensions = [EditorView.updateListener.of((u) => void (reconfigured += u.transactions.filter((t) => t.reconfigured).length))];
    const show = (readOnly: boolean) =>
      act(() => root!.render(<CodeEditor value={'{\n  "a": 1\n}'} readOnly={readOnly} theme="light" extensions={extensions} basicSetup={setup} />));
    show(false);
    const view = EditorView.findFromDOM(el.querySelector('.cm-editor') as HTMLElement)!;
    const gutter = el.querySelector('.cm-lineNumbers');
    expect(gutter).not.toBeNull();
    expect(view.state.readOnly).toBe(false);
    expect(view.contentDOM.getAttribute('contenteditable')).toBe('true');
    show(true);
    // Not focused: it follows in a task of its own (every editor of the page turns at once when
    // a run starts); meanwhile the person's edits are refused already.
    act(() => view.dispatch({ changes: { from: 0, insert: 'x' }, userEvent: 'input.type' }));
    expect(view.state.doc.toString()).toBe('{\n  "a": 1\n}');
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(view.state.readOnly).toBe(true);
    expect(view.contentDOM.getAttribute('contenteditable')).toBe('false');
    expect(el.querySelector('.cm-lineNumbers')).toBe(gutter);
    show(false);
    act(() => view.dispatch({ changes: { from: 0, insert: 'x' }, userEvent: 'input.type' }));
    expect(view.state.doc.toString()).toBe('x{\n  "a": 1\n}');
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(view.state.readOnly).toBe(false);
    expect(view.contentDOM.getAttribute('contenteditable')).toBe('true');
    expect(el.querySelector('.cm-lineNumbers')).toBe(gutter);
    expect(reconfigured).toBe(0);
  });
});
