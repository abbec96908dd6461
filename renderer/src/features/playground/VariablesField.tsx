/**
 * The thread's `{{variables}}`: NAME=value lines, filled into the system prompt when a run
 * starts. Names the prompt uses but the thread does not define are listed, since they would
 * reach the model word for word.
 */
import { useEffect, useState } from 'react';
import { Text, Textarea } from '@mantine/core';
import type { Thread } from '../../../../shared/thread/schema';
import { useSession } from '../../state/hooks';

/** `{{ name }}` references in a text. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1]))];
}

const toText = (vars: Record<string, string> | undefined) => Object.entries(vars ?? {}).map(([k, v]) => `${k}=${v}`).join('\n');

export function VariablesField({ thread, readOnly }: { thread: Thread; readOnly: boolean }) {
  const session = useSession()!;
  const vars = thread.context.variables;
  const [text, setText] = useState(() => toText(vars));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // Follow changes from elsewhere (undo, another window) unless the text already says so.
    setText((cur) => (toText(vars) === toText(parse(cur).vars) ? cur : toText(vars)));
  }, [vars]);
  const refs = referencedVariables(thread.context.systemPrompt);
  const missing = refs.filter((r) => !(vars && r in vars));
  if (refs.length === 0 && !vars) return null;
  return (
    <>
      <Textarea size="xs" autosize minRows={1} maxRows={8} label="Variables (NAME=value per line, used as {{NAME}})" value={text} readOnly={readOnly} error={error}
        onChange={(e) => {
          const t = e.currentTarget.value;
          setText(t);
          const r = parse(t);
          setError(r.error);
          if (!r.error) session.edit((d) => void (d.context.variables = Object.keys(r.vars).length ? r.vars : undefined), 'variables');
        }} />
      {missing.length > 0 && <Text size="xs" c="orange">Not defined, sent as written: {missing.map((m) => `{{${m}}}`).join(', ')}</Text>}
    </>
  );
}

function parse(text: string): { vars: Record<string, string>; error: string | null } {
  const vars: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    if (!raw.trim()) continue;
    const eq = raw.indexOf('=');
    const name = raw.slice(0, eq).trim();
    if (eq <= 0 || !/^[\w.-]+$/.test(name)) return { vars, error: `Line ${i + 1}: use NAME=value (letters, digits, "_", "." or "-" in the name)` };
    vars[name] = raw.slice(eq + 1);
  }
  return { vars, error: null };
}
