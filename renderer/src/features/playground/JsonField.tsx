/**
 * A JSON value edited as text: the text stays the user's while it does not parse; a parsed
 * value that differs from the document is committed. External changes (undo, a run) reset it.
 */
import { useEffect, useRef, useState } from 'react';
import { JsonEditor } from '../../ui/editors';
import { toJson } from '../../ui/format';
import { useApp } from '../../state/context';

export interface JsonFieldProps {
  value: unknown;
  onValue?: (v: unknown) => void;
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
}

/** JSON editor bound to a document value. */
export function JsonField({ value, onValue, label, readOnly, validate, object, minHeight, maxHeight, invalidKey }: JsonFieldProps) {
  const app = useApp();
  const [text, setText] = useState(() => toJson(value));
  const [parseError, setParseError] = useState<string | null>(null);
  const textRef = useRef(text);
  textRef.current = text;
  useEffect(() => {
    try {
      if (JSON.stringify(JSON.parse(textRef.current)) === JSON.stringify(value)) return;
    } catch {}
    setParseError(null);
    setText(toJson(value));
  }, [value]);
  const change = (t: string) => {
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
    if (JSON.stringify(v) !== JSON.stringify(value)) onValue?.(v);
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
  return <JsonEditor value={text} onChange={readOnly ? undefined : change} readOnly={readOnly} label={label} error={parseError ?? schemaError} minHeight={minHeight} maxHeight={maxHeight} />;
}
