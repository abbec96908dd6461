/**
 * Highlighting of find matches in a field, the same in its two renderings: a CodeMirror
 * extension for the live editor ({@link findHighlightExtension}) and marked spans for the
 * static text shown before the editor exists ({@link highlightRuns}). Every occurrence of the
 * query gets `sw-find-hit`; the current one also `sw-find-current` (styles.css).
 */
import type { ReactNode } from 'react';
import type { Extension } from '@codemirror/state';
import { Decoration, EditorView, MatchDecorator, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';

/** A case-insensitive global regular expression matching `query` literally; null for an empty query. */
export function queryPattern(query: string): RegExp | null {
  if (!query) return null;
  return new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
}

/** Non-overlapping occurrences of `query` in `text`, left to right, as `[from, to)` pairs (UTF-16 offsets). */
export function occurrences(text: string, query: string): [number, number][] {
  const re = queryPattern(query);
  if (!re) return [];
  const out: [number, number][] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) re.lastIndex++; // cannot happen for a non-empty literal; never loop
  }
  return out;
}

/** What to highlight in one field: the query, and the offset of the current match in it (-1: none here). */
export interface FieldHighlight {
  query: string;
  current: number;
}

const hit = Decoration.mark({ class: 'sw-find-hit' });
const currentHit = Decoration.mark({ class: 'sw-find-hit sw-find-current', attributes: { 'data-find-current': 'true' } });

/** CodeMirror decorations for `h`, and scrolling the current match into view inside the editor. */
export function findHighlightExtension(h: FieldHighlight | undefined): Extension {
  const re = h && queryPattern(h.query);
  if (!h || !re) return [];
  const current = h.current;
  const decorator = new MatchDecorator({ regexp: re, decoration: (_m, _view, pos) => (pos === current ? currentHit : hit) });
  const plugin = ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = decorator.createDeco(view);
        if (current >= 0 && current <= view.state.doc.length) {
          // A long field scrolls inside its editor: bring the match into view once it is drawn.
          const at = current;
          requestAnimationFrame(() => view.dom.isConnected && view.dispatch({ effects: EditorView.scrollIntoView(Math.min(at, view.state.doc.length), { y: 'nearest' }) }));
        }
      }
      update(u: ViewUpdate) {
        this.decorations = decorator.updateDeco(u, this.decorations);
      }
    },
    { decorations: (v) => v.decorations },
  );
  return plugin;
}

/**
 * `text` cut into plain and marked runs for `h` (static rendering); `base` is the offset of
 * `text` in its field (one line of it), so the current match is found by its field offset.
 */
export function highlightRuns(text: string, h: FieldHighlight | undefined, base = 0): ReactNode {
  if (!h?.query) return text;
  const found = occurrences(text, h.query);
  if (!found.length) return text;
  const out: ReactNode[] = [];
  let at = 0;
  for (const [from, to] of found) {
    if (from > at) out.push(text.slice(at, from));
    const current = base + from === h.current;
    out.push(
      <mark key={from} className={current ? 'sw-find-hit sw-find-current' : 'sw-find-hit'} data-find-current={current ? 'true' : undefined}>
        {text.slice(from, to)}
      </mark>,
    );
    at = to;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
