/**
 * An editor bound to a `Y.Text` of the thread with y-codemirror.next
 * (docs/architecture.md#multi-window-editing): the person's changes go into the text as Yjs
 * operations, in transactions whose origin is the binding's {@link FieldSync}, and every other
 * change of the text (another window, undo, a run's result) comes into the editor as that
 * change alone, so the cursor stays where it is. The editor keeps no history of its own: Mod-Z,
 * Mod-Shift-Z / Mod-Y and the browser's undo and redo (the Edit menu) run the window's undo,
 * the one the Undo button runs.
 */
import { Prec, type Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { ySync, ySyncFacet } from 'y-codemirror.next';
import { FieldSync, type BoundText } from './text-binding';

export { ySyncAnnotation } from 'y-codemirror.next';

/** The extensions binding an editor to `bound`'s text, and the origin of its transactions. */
export function yBinding(bound: BoundText): { extension: Extension; origin: FieldSync } {
  const origin = new FieldSync(bound.ytext, bound.key);
  // Handled either way: the browser's own undo would change the editor's DOM behind the text.
  const undo = () => (bound.undo(), true);
  const redo = () => (bound.redo(), true);
  const extension = [
    ySyncFacet.of(origin),
    ySync,
    Prec.high(
      keymap.of([
        { key: 'Mod-z', run: undo, preventDefault: true },
        { key: 'Mod-y', mac: 'Mod-Shift-z', run: redo, preventDefault: true },
        { key: 'Mod-Shift-z', run: redo, preventDefault: true },
      ]),
    ),
    EditorView.domEventHandlers({
      beforeinput: (e) => (e.inputType === 'historyUndo' ? undo() : e.inputType === 'historyRedo' ? redo() : false),
    }),
  ];
  return { extension, origin };
}
