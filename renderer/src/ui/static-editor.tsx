/**
 * The static stand-in for a CodeMirror editor (editor-mount.tsx): the same text in the same box —
 * CodeMirror's font, line height, paddings, wrapping and size limits, and for JSON its gutters —
 * so that when the editor replaces it nothing moves. It is a `textbox` with the editor's
 * accessible name; focusing or clicking it asks for the editor (`onWake`) with the click point,
 * so the editor opens with the cursor where the person clicked. Styles: `.sw-static-*` in
 * styles.css, taken from CodeMirror's base theme (@codemirror/view).
 */
import { useRef, type CSSProperties } from 'react';
import type { FocusRequest } from './editor-mount';
import { highlightRuns, type FieldHighlight } from './find-highlight';

/** Lines drawn one by one; the rest of a longer text is drawn as one block (it is below the fold of the box anyway). */
const MAX_LINES = 400;

export interface StaticEditorProps {
  value: string;
  label: string;
  readOnly?: boolean;
  placeholder?: string;
  /** Size limits of the editor box, CSS lengths. */
  minHeight?: string;
  maxHeight?: string;
  /** Wrap long lines (the prompt editor) or scroll sideways (JSON). */
  wrap: boolean;
  /** Show the JSON editor's gutters (line numbers, fold and lint columns). */
  gutters?: boolean;
  highlight?: FieldHighlight;
  style?: CSSProperties;
  /** The person focused or clicked the text: make the editor. */
  onWake(focus: FocusRequest): void;
}

/** Static text in the editor's layout. */
export function StaticEditor(p: StaticEditorProps) {
  const press = useRef<{ x: number; y: number; at: number } | null>(null);
  const lines = p.value.split('\n');
  const shown = lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES - 1), lines.slice(MAX_LINES - 1).join('\n')] : lines;
  let offset = 0;
  const body = shown.map((line, i) => {
    const base = offset;
    offset += line.length + 1;
    return (
      <div key={i} className="sw-static-line">
        {line ? highlightRuns(line, p.highlight, base) : !p.value && p.placeholder ? <span className="sw-static-placeholder" aria-hidden="true">{p.placeholder}</span> : <br />}
      </div>
    );
  });
  const wake = () => {
    const click = press.current && performance.now() - press.current.at < 1000 ? press.current : null;
    press.current = null;
    p.onWake(click ? { x: click.x, y: click.y } : {});
  };
  return (
    <div style={p.style}>
      <div className="sw-static-editor" style={{ minHeight: p.minHeight, maxHeight: p.maxHeight }} data-static-editor={p.label}>
        <div className="sw-static-scroller">
          {p.gutters && (
            <div className="sw-static-gutters" aria-hidden="true">
              <div className="sw-static-linenumbers">{lines.map((_, i) => i + 1).join('\n')}</div>
              <div className="sw-static-fold" />
              <div className="sw-static-lint" />
            </div>
          )}
          <div
            className={p.wrap ? 'sw-static-content sw-static-wrap' : 'sw-static-content'}
            role="textbox"
            aria-label={p.label}
            aria-multiline="true"
            aria-readonly={p.readOnly ? 'true' : undefined}
            aria-placeholder={p.placeholder || undefined}
            // A read-only editor is not in the tab order (CodeMirror's is not editable), so neither is its text.
            tabIndex={p.readOnly ? undefined : 0}
            onMouseDown={(e) => (press.current = { x: e.clientX, y: e.clientY, at: performance.now() })}
            onFocus={wake}
            onClick={p.readOnly ? wake : undefined}
          >
            {body}
          </div>
        </div>
      </div>
    </div>
  );
}
