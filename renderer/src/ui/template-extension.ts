/**
 * Template support for the prompt editors (docs/architecture.md#templates): `{{ … }}`
 * highlighted amber, `{% … %}` violet and `{# … #}` grey; completion of variable names and
 * `@include("…")` after `{{`, and of block tags after `{%`, taken with Enter or Tab; a
 * variable's value on hover.
 * The variables are read through `variables()` at the moment they are needed, so the extension
 * stays the same object while the thread changes.
 */
import { acceptCompletion, autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState, Prec, type Extension } from '@codemirror/state';
import { Decoration, EditorView, MatchDecorator, ViewPlugin, hoverTooltip, keymap, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { BLOCK_TAGS } from '../../../shared/template/syntax';

/** A variable as the editors show it: its name, a kind (`text`, `json`, `file`, `built-in`) and its value. */
export interface TemplateVariable {
  name: string;
  kind: string;
  value: string;
}

const marks = {
  expr: Decoration.mark({ class: 'cm-tmpl-expr' }),
  tag: Decoration.mark({ class: 'cm-tmpl-tag' }),
  comment: Decoration.mark({ class: 'cm-tmpl-comment' }),
};

const decorator = new MatchDecorator({
  regexp: /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g,
  decoration: (m) => (m[0].startsWith('{{') ? marks.expr : m[0].startsWith('{%') ? marks.tag : marks.comment),
});

const highlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorator.createDeco(view);
    }
    update(u: ViewUpdate) {
      this.decorations = decorator.updateDeco(u, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

const theme = EditorView.baseTheme({
  '.cm-tmpl-expr': { color: '#b45309', backgroundColor: 'rgba(245, 158, 11, 0.10)' },
  '.cm-tmpl-tag': { color: '#7c3aed', backgroundColor: 'rgba(139, 92, 246, 0.10)' },
  '.cm-tmpl-comment': { color: '#6b7280', fontStyle: 'italic' },
  '&dark .cm-tmpl-expr': { color: '#fbbf24' },
  '&dark .cm-tmpl-tag': { color: '#c4b5fd' },
  '.cm-tmpl-hover': { padding: '4px 8px', maxWidth: '420px', maxHeight: '240px', overflow: 'auto', whiteSpace: 'pre-wrap', fontFamily: 'monospace', fontSize: '12px' },
});

/**
 * The completion list of template editors. Enter and Tab take the selected option as soon as the
 * list shows: CodeMirror's default `interactionDelay` (75 ms) ignores Enter that soon after the
 * list opens, and Enter then fell through to the default keymap's new line (between `{{ w` and
 * the `}}` closeBrackets put after it). Inside `{{ … }}` or `{% … %}` a new line is never what
 * was meant. Tab takes the option too (the editors do not indent with Tab: without a list it
 * still moves the focus on). Merges with the basic setup's `autocompletion()` if it has one.
 */
const completion: Extension = [
  autocompletion({ interactionDelay: 0 }),
  Prec.highest(keymap.of([{ key: 'Tab', run: acceptCompletion }])),
];

/** Completions at the cursor: names after `{{` (and `@include`), block tags after `{%`. */
export function templateCompletions(variables: () => TemplateVariable[]) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const before = ctx.state.sliceDoc(Math.max(0, ctx.pos - 200), ctx.pos);
    const expr = /\{\{\s*(@?[A-Za-z_]\w*)?$/.exec(before);
    if (expr) {
      const word = expr[1] ?? '';
      return {
        from: ctx.pos - word.length,
        options: [
          ...variables().map((v) => ({ label: v.name, type: 'variable', detail: v.kind, info: v.value.slice(0, 500) })),
          { label: '@include', type: 'function', detail: 'a workspace file', apply: '@include("path/to/file")' },
        ],
        validFor: /^@?\w*$/,
      };
    }
    const tag = /\{%-?\s*([a-z]*)$/.exec(before);
    if (tag) {
      return { from: ctx.pos - tag[1].length, options: BLOCK_TAGS.map((t) => ({ label: t, type: 'keyword' })), validFor: /^[a-z]*$/ };
    }
    return null;
  };
}

/** The variable name under `pos` inside a `{{ … }}` or `{% … %}`, with its span. */
export function nameAt(text: string, pos: number): { name: string; from: number; to: number } | null {
  for (const m of text.matchAll(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g)) {
    const start = m.index ?? 0;
    if (pos < start || pos > start + m[0].length) continue;
    for (const w of m[0].matchAll(/[A-Za-z_]\w*/g)) {
      const from = start + (w.index ?? 0);
      if (pos >= from && pos <= from + w[0].length) return { name: w[0], from, to: from + w[0].length };
    }
  }
  return null;
}

/** The extension: highlighting, completion (list and keys) and hover over `variables()`. */
export function templateSupport(variables: () => TemplateVariable[]): Extension {
  // One source for the editor's life: the completion plugin matches its results to their source by identity.
  const source = templateCompletions(variables);
  const data = [{ autocomplete: source }];
  return [
    highlight,
    theme,
    completion,
    EditorState.languageData.of(() => data),
    hoverTooltip((view, pos) => {
      const line = view.state.doc.lineAt(pos);
      const hit = nameAt(line.text, pos - line.from);
      const v = hit && variables().find((x) => x.name === hit.name);
      if (!hit || !v) return null;
      return {
        pos: line.from + hit.from,
        end: line.from + hit.to,
        above: true,
        create: () => {
          const dom = document.createElement('div');
          dom.className = 'cm-tmpl-hover';
          dom.setAttribute('role', 'tooltip');
          dom.setAttribute('aria-label', `Value of ${v.name}`);
          dom.textContent = `${v.name} (${v.kind}) = ${v.value.length > 2000 ? `${v.value.slice(0, 2000)}…` : v.value}`;
          return { dom };
        },
      };
    }),
  ];
}
