/**
 * A CodeMirror 6 view bound to a React value. Why not `@uiw/react-codemirror`'s component: it
 * replaces the whole document when the value changes, and while the person types it defers
 * that replacement and later applies the value it saw then — stale if the person typed since.
 * With two windows typing into one field, that left the editor showing text the document no
 * longer held. Here a new value is applied at once as the smallest change from the editor's
 * text ({@link splice}), so the cursor and the person's typing stay where they are, and it is
 * never applied late. Theme and basic setup still come from `@uiw/react-codemirror`.
 *
 * An editor of a `Y.Text` field (`bound`: the system prompt, a message's text) is bound to it
 * with y-codemirror.next instead (y-binding.ts): `value` and `onChange` are not used then, and
 * a new `bound` (the field made again) binds the same view to the new text.
 */
import { useEffect, useLayoutEffect, useRef, type CSSProperties } from 'react';
import { Annotation, Compartment, EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { getDefaultExtensions, type BasicSetupOptions } from '@uiw/react-codemirror';
import { darkSyntaxContrast } from './editor-contrast';
import { splice } from '../../../shared/thread/text-splice';
import type { FocusRequest } from './editor-mount';
import { yBinding, ySyncAnnotation } from './y-binding';
import type { BoundText, FieldSync } from './text-binding';

/** Marks a transaction that applies the value prop, so it is not reported back as an edit. */
const fromProp = Annotation.define<boolean>();

export interface CodeEditorProps {
  value: string;
  /**
   * The person changed the text; `text` is the whole new text, `previous` the editor's text
   * before the change (the document may have moved on since the editor last showed it: an
   * edit from another window not rendered yet). Not called while the editor is `bound`.
   */
  onChange?: (text: string, previous: string) => void;
  /** Bind the editor to this `Y.Text` field instead of `value` and `onChange` (y-binding.ts). */
  bound?: BoundText;
  readOnly?: boolean;
  theme: 'light' | 'dark';
  /** Language, lint, accessibility and the like; keep it referentially stable (useMemo). */
  extensions: Extension[];
  basicSetup: BasicSetupOptions;
  placeholder?: string;
  minHeight?: string;
  maxHeight?: string;
  style?: CSSProperties;
  /**
   * Take the focus once made (the person focused or clicked the static text this editor
   * replaces, editor-mount.tsx): with a click point, the cursor goes where they clicked.
   */
  autoFocus?: FocusRequest | null;
}

/**
 * The size theme for `minHeight`/`maxHeight`, made once per pair: each theme is a style module
 * whose rules CodeMirror adds to the page the first time it is used, which makes the browser
 * restyle the whole page. With one module per size, the many editors of a thread add none.
 */
const sizeThemes = new Map<string, Extension>();
function sizeTheme(minHeight: string | undefined, maxHeight: string | undefined): Extension {
  const key = `${minHeight ?? ''}|${maxHeight ?? ''}`;
  let theme = sizeThemes.get(key);
  if (!theme) {
    theme = EditorView.theme({ '&': { minHeight: minHeight ?? null, maxHeight: maxHeight ?? null }, '.cm-scroller': { overflow: 'auto' } });
    sizeThemes.set(key, theme);
  }
  return theme;
}

/**
 * The editor's configuration that follows props, but for read-only ({@link access}): theme,
 * setup, placeholder, size, extensions.
 */
export function configure(p: Omit<CodeEditorProps, 'value' | 'readOnly'>): Extension[] {
  return [
    ...getDefaultExtensions({ theme: p.theme, basicSetup: p.basicSetup, placeholder: p.placeholder ?? '', indentWithTab: false }),
    p.theme === 'dark' ? darkSyntaxContrast : [],
    sizeTheme(p.minHeight, p.maxHeight),
    ...p.extensions,
  ];
}

/** Sets the editor read-only (true) or editable (false). */
const setReadOnly = StateEffect.define<boolean>();

/**
 * Read-only or not, as a state field the editable and read-only facets follow: a thread turns
 * read-only while it runs, and every editor of it follows. An effect on this field changes no
 * configuration; reconfiguring (the whole setup, then a compartment) made every editor in the
 * page resolve its configuration again, or make its plugins again, in the task that started or
 * ended the run.
 */
const readOnlyField = StateField.define<boolean>({
  create: () => false,
  update: (v, tr) => tr.effects.reduce((ro, e) => (e.is(setReadOnly) ? e.value : ro), v),
  // Read-only content stays in the tab order, so its scroll area is reachable from the keyboard.
  provide: (f) => [EditorView.editable.from(f, (ro) => !ro), EditorState.readOnly.from(f), EditorView.contentAttributes.from(f, (ro): Record<string, string> => (ro ? { tabindex: '0' } : {}))],
});

/**
 * Refuses the person's edits while `readOnly()` says so, before the editor's own read-only state
 * has followed (it follows in a later task); the value prop's changes still apply.
 */
export function blockWhileReadOnly(readOnly: () => boolean): Extension {
  return EditorState.transactionFilter.of((tr) => (tr.docChanged && readOnly() && !tr.annotation(fromProp) && !tr.annotation(ySyncAnnotation) ? [] : tr));
}

/** The read-only state an editor starts with ({@link readOnlyField}). */
export function access(readOnly: boolean | undefined): Extension {
  return readOnlyField.init(() => !!readOnly);
}

/** A CodeMirror editor showing `value`; see the file comment for how value changes apply. */
export function CodeEditor(props: CodeEditorProps) {
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const config = useRef(new Compartment());
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  /** The editor's text as last typed or applied: one serialisation per keystroke, no more. */
  const text = useRef(props.value);
  /** Read-only as this render says, before the editor's own state follows (see the effect below). */
  const readOnlyNow = useRef(!!props.readOnly);
  readOnlyNow.current = !!props.readOnly;
  /** The field the view is bound to now, its binding's origin, and the compartment holding it. */
  const bound = useRef(props.bound);
  const origin = useRef<FieldSync | undefined>(undefined);
  const binding = useRef(new Compartment());

  // Layout effects, in this order: the view exists before the value is applied to it. And not
  // passive ones: React runs those after paint, and a key typed in between would reach the
  // document first; this render's value would then be older than the editor's text, and
  // applying it would take the new keystroke out again.
  useLayoutEffect(() => {
    const b = bound.current ? yBinding(bound.current) : undefined;
    origin.current = b?.origin;
    if (bound.current) text.current = bound.current.ytext.toString();
    const v = new EditorView({
      parent: parent.current!,
      state: EditorState.create({
        doc: text.current,
        extensions: [
          config.current.of(configure(props)),
          access(props.readOnly),
          // Bound, the session says at once when edits are refused (a run started): the prop follows later.
          blockWhileReadOnly(() => readOnlyNow.current || !!bound.current?.readOnly()),
          binding.current.of(b?.extension ?? []),
          EditorView.updateListener.of((u) => {
            if (bound.current) {
              // The person typed (y-codemirror.next marks what it brings in from the document, and
              // binding to a text marks the change that shows it).
              if (u.docChanged && !u.transactions.some((t) => t.annotation(ySyncAnnotation) || t.annotation(fromProp))) bound.current.typed?.();
              return;
            }
            if (!u.docChanged || u.transactions.some((t) => t.annotation(fromProp))) return;
            const previous = text.current;
            text.current = u.state.doc.toString();
            onChange.current?.(text.current, previous);
          }),
        ],
      }),
    });
    view.current = v;
    const f = props.autoFocus;
    if (f) {
      const at = f.x !== undefined && f.y !== undefined ? v.posAtCoords({ x: f.x, y: f.y }) : null;
      if (at !== null) v.dispatch({ selection: { anchor: at } });
      v.focus();
    }
    return () => {
      v.destroy();
      view.current = null;
    };
    // Made once; later props are applied by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The field's text was made again (or the editor is bound or let go): the view takes the new
  // text as the smallest change and binds to it. In two steps: y-codemirror.next's plugin reads
  // its text when it is made, so the old one is removed (destroyed) before the new one is made.
  useLayoutEffect(() => {
    const v = view.current;
    const next = props.bound;
    if (!v || next === bound.current) return;
    const target = next ? next.ytext.toString() : props.value;
    const d = splice(v.state.doc.toString(), target);
    const annotations = [fromProp.of(true), ...(origin.current ? [ySyncAnnotation.of(origin.current)] : [])];
    bound.current = next;
    text.current = target;
    v.dispatch({ changes: { from: d.at, to: d.at + d.remove.length, insert: d.insert }, effects: binding.current.reconfigure([]), annotations });
    const b = next ? yBinding(next) : undefined;
    origin.current = b?.origin;
    if (b) v.dispatch({ effects: binding.current.reconfigure(b.extension) });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the value matters only when let go
  }, [props.bound]);

  useLayoutEffect(() => {
    const v = view.current;
    if (!v || bound.current || props.value === text.current) return;
    const d = splice(text.current, props.value);
    text.current = props.value;
    v.dispatch({ changes: { from: d.at, to: d.at + d.remove.length, insert: d.insert }, annotations: fromProp.of(true) });
  }, [props.value]);

  const { theme, basicSetup, placeholder, readOnly, minHeight, maxHeight, extensions } = props;
  const configured = useRef(false);
  useEffect(() => {
    if (!configured.current) return void (configured.current = true); // made with this configuration
    view.current?.dispatch({ effects: config.current.reconfigure(configure({ ...props })) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [theme, basicSetup, placeholder, minHeight, maxHeight, extensions]);
  const madeReadOnly = useRef(readOnly);
  useEffect(() => {
    const v = view.current;
    if (!v || madeReadOnly.current === readOnly) return; // made (or last set) so
    const apply = () => {
      madeReadOnly.current = readOnly;
      v.dispatch({ effects: setReadOnly.of(!!readOnly) });
    };
    // A run starting or ending turns every editor of the page; each one, updating, reads the
    // page's selection, which lays out the page the run's render just changed. One task per
    // editor: the focused one now, the others each in a task of its own. Meanwhile
    // `blockWhileReadOnly` already refuses edits.
    if (v.hasFocus) return apply();
    const t = setTimeout(apply, 0);
    return () => clearTimeout(t);
  }, [readOnly]);

  return <div ref={parent} style={props.style} />;
}
