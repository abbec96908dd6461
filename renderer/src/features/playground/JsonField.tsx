/**
 * A JSON value edited as text: the text stays the user's while it does not parse; a parsed
 * value that differs from the document is committed. When the document's value changes
 * from elsewhere (another window, undo, a run), the text takes the change: merged into the
 * user's text ({@link mergeText}) — so JSON still being typed is kept — and shown as is
 * when the user's text already says the same.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { JsonEditor } from '../../ui/editors';
import { toJson } from '../../ui/format';
import { useApp } from '../../state/context';
import { mergeText } from '../../state/text-merge';
import type { FieldHighlight } from '../../ui/find-highlight';

export interface JsonFieldProps {
  value: unknown;
  /**
   * A parsed value to commit. `base` is the document value the text was made from: the
   * document may have moved on since (another window), so merge `v` into the current value
   * with `mergeJson(base, v, current)` rather than overwrite it.
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

/** JSON editor bound to a document value. */
export function JsonField({ value, onValue, label, readOnly, validate, object, minHeight, maxHeight, invalidKey, highlight }: JsonFieldProps) {
  const app = useApp();
  const [text, setText] = useState(() => toJson(value));
  const [parseError, setParseError] = useState<string | null>(null);
  const textRef = useRef(text);
  /** The document value the text was last made from or agreed with: the base of a merge. */
  const synced = useRef(value);
  /** The text as it was at that point (the person's formatting), the base of a text merge. */
  const syncedText = useRef(text);
  // A layout effect so a key typed between this render and a passive effect is not undone.
  useLayoutEffect(() => {
    if (value === synced.current) return; // the echo of the person's own commit: nothing to do
    const mine = textRef.current;
    try {
      if (JSON.stringify(JSON.parse(mine)) === JSON.stringify(value)) {
        synced.current = value;
        syncedText.current = mine;
        return;
      }
    } catch {}
    // Changed elsewhere: take the change into the text, keeping what is being typed.
    const theirs = toJson(value);
    const next = mergeText(syncedText.current, mine, theirs);
    textRef.current = next;
    setText(next);
    try {
      JSON.parse(next);
      setParseError(null);
    } catch (err) {
      // The text could not take the change in (it is still being typed): keep the old base, so
      // the value it parses to later is merged key by key with the document's (onValue's base).
      setParseError(`Not valid JSON yet: ${(err as Error).message}`);
      return;
    }
    synced.current = value;
    syncedText.current = theirs;
  }, [value]);
  const change = (t: string) => {
    textRef.current = t;
    setText(t);
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (err) {
      setParseError(`Not valid JSON yet: ${(err as Error).message}`);
      return;
    }
    if (object && (v === null || typeof v !== 'object' || Array.isArray(v))) {
      setParseError('Must be a JSON object ({ … }).');
      return;
    }
    setParseError(null);
    const base = synced.current;
    synced.current = v;
    syncedText.current = t;
    if (JSON.stringify(v) !== JSON.stringify(value)) onValue?.(v, base);
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
