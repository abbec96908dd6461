/**
 * A JSON value edited as text: the text stays the user's while it does not parse; a parsed
 * value that differs from the document is committed. When the document's value changes
 * from elsewhere (another window, undo, a run), the text shows the new value — unless the
 * user's text says the same already, or is still being typed (it does not parse): then it is
 * kept, with the value it was made from, so that once it parses only the keys it changed are
 * set (onValue's `base`) and the change made elsewhere stays.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { JsonEditor } from '../../ui/editors';
import { toJson } from '../../ui/format';
import { useApp } from '../../state/context';
import type { FieldHighlight } from '../../ui/find-highlight';

export interface JsonFieldProps {
  value: unknown;
  /**
   * A parsed value to commit. `base` is the document value the text was made from: the
   * document may have moved on since (another window), so set only what changed from `base`
   * (a tool call's arguments: the changed keys, json-keys.ts) rather than overwrite it.
   */
  onValue?: (v: unknown, base: unknown) => void;
  label: string;
  readOnly?: boolean;
  /** Extra check of a parsed value (schema); returns the error text or null. */
  validate?: (v: unknown) => string | null;
  /** Require a JSON object. */
  object?: boolean;
  /** Report under this key while the text does not parse, so runs wait for a fix. */
  invalidKey?: string;
  minHeight?: number;
  maxHeight?: number;
  /** Find matches to mark. */
  highlight?: FieldHighlight;
}

/** What `t` parses to, or why it is not a value to commit (`object`: a JSON object is required). */
function parse(t: string, object: boolean | undefined): { value: unknown } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch (err) {
    return { error: `Not valid JSON yet: ${(err as Error).message}` };
  }
  if (object && (v === null || typeof v !== 'object' || Array.isArray(v))) return { error: 'Must be a JSON object ({ … }).' };
  return { value: v };
}

/** JSON editor bound to a document value. */
export function JsonField({ value, onValue, label, readOnly, validate, object, minHeight, maxHeight, invalidKey, highlight }: JsonFieldProps) {
  const app = useApp();
  const [text, setText] = useState(() => toJson(value));
  const [parseError, setParseError] = useState<string | null>(null);
  const textRef = useRef(text);
  /** The document value the text was last made from or agreed with: the base of a commit. */
  const synced = useRef(value);
  // A layout effect so a key typed between this render and a passive effect is not undone.
  useLayoutEffect(() => {
    if (value === synced.current) return; // the echo of the person's own commit: nothing to do
    const mine = parse(textRef.current, object);
    // Still being typed: kept, and so is its base (see the file comment).
    if ('error' in mine) return;
    synced.current = value;
    if (JSON.stringify(mine.value) === JSON.stringify(value)) return;
    // Changed elsewhere: the text shows the document's value.
    const theirs = toJson(value);
    textRef.current = theirs;
    setText(theirs);
  }, [value, object]);
  const change = (t: string) => {
    textRef.current = t;
    setText(t);
    const r = parse(t, object);
    if ('error' in r) return setParseError(r.error);
    setParseError(null);
    const base = synced.current;
    synced.current = r.value;
    if (JSON.stringify(r.value) !== JSON.stringify(value)) onValue?.(r.value, base);
  };
  useEffect(() => {
    if (!invalidKey) return;
    app.setInvalid(invalidKey, parseError !== null);
    return () => app.setInvalid(invalidKey, false);
  }, [app, invalidKey, parseError]);
  let schemaError: string | null = null;
  if (!parseError && validate) {
    try {
      schemaError = validate(JSON.parse(text));
    } catch {}
  }
  return <JsonEditor value={text} onChange={readOnly ? undefined : change} readOnly={readOnly} label={label} error={parseError ?? schemaError} minHeight={minHeight} maxHeight={maxHeight} highlight={highlight} />;
}
