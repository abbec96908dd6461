/**
 * Runs the editors' code once before a thread needs it. The first CodeMirror view a page makes
 * costs several times what the next ones do: the browser compiles CodeMirror's code (the view,
 * its DOM observer, gutters, the JSON parser and highlighter) as it first runs it. Made in the
 * task that showed a thread's first editor, that pushed the task past 50 ms. Here one view of
 * each configuration is made off the page (never attached: no layout, no style) and destroyed,
 * each in a task of its own; the thread's editors then start warm.
 */
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { access, configure, type CodeEditorProps } from './code-editor';

/** An editor's configuration, as CodeEditor takes it, and a text to show in it. */
export type WarmEditor = Omit<CodeEditorProps, 'value' | 'onChange' | 'autoFocus'> & { doc: string };

/** Runs `step` in a task of its own, later (the playground's wake queue). */
export type StepScheduler = (key: string, step: () => void) => void;

/** Make one detached view of `e` and destroy it. */
function makeAndDrop(e: WarmEditor): void {
  const view = new EditorView({ state: EditorState.create({ doc: e.doc, extensions: [configure(e), access(e.readOnly)] }) });
  view.destroy();
}

/**
 * Make and destroy one view of each of `editors`, each in a step `schedule` runs. A view that
 * fails to make is skipped: warming is only an optimisation, and the editors themselves report
 * their errors when they are made.
 */
export function warmEditors(editors: readonly WarmEditor[], schedule: StepScheduler): void {
  editors.forEach((e, i) =>
    schedule(`warm-editor-${i}`, () => {
      try {
        makeAndDrop(e);
      } catch {
        // Not warmed; nothing depends on it.
      }
    }),
  );
}
