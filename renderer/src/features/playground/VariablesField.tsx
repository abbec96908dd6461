/**
 * The thread's template variables and scenarios (docs/architecture.md#templates): NAME=value
 * lines, a type per variable (text, JSON, file: a workspace path whose contents it stands
 * for), the named scenarios that override some values, and the scenario picked for the next
 * run. Names the prompt uses that nothing defines are listed: they reach the model as written.
 */
import { useEffect, useState } from 'react';
import { Button, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import type { Thread } from '../../../../shared/thread/schema';
import { VARIABLE_NAME_PATTERN } from '../../../../shared/thread/schema';
import { BUILTIN_VARIABLES } from '../../../../shared/template/syntax';
import { useSession } from '../../state/hooks';
import { DROPDOWN_WHEN_OPEN } from '../../ui/dropdown';

/** Plain `{{ name }}` references in a text. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([A-Za-z_]\w*)\s*\}\}/g)].map((m) => m[1]))];
}

const toText = (vars: Record<string, string> | undefined) => Object.entries(vars ?? {}).map(([k, v]) => `${k}=${v}`).join('\n');

/** NAME=value lines → variables, or the first line that is not one. */
export function parseVariableLines(text: string): { vars: Record<string, string>; error: string | null } {
  const vars: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    if (!raw.trim()) continue;
    const eq = raw.indexOf('=');
    const name = raw.slice(0, eq).trim();
    if (eq <= 0 || !VARIABLE_NAME_PATTERN.test(name)) return { vars, error: `Line ${i + 1}: use NAME=value (a name is letters, digits and "_", not starting with a digit)` };
    vars[name] = raw.slice(eq + 1);
  }
  return { vars, error: null };
}

const GROW = { input: 'sw-grow-textarea' };

/** A NAME=value text area that edits `vars` through `onVars` and follows changes from elsewhere. */
function VariableLines({ label, vars, readOnly, onVars }: { label: string; vars: Record<string, string> | undefined; readOnly: boolean; onVars: (v: Record<string, string>) => void }) {
  const [text, setText] = useState(() => toText(vars));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // Follow changes from elsewhere (undo, another window) unless the text already says so.
    setText((cur) => (toText(vars) === toText(parseVariableLines(cur).vars) ? cur : toText(vars)));
  }, [vars]);
  return (
    // Grows with its text (up to 8 lines) by CSS (styles.css, sw-grow-textarea), not by Mantine's
    // autosize: that measured the text area after every render, laying out the whole page inside
    // the task that rendered it (a run starting or ending re-renders the playground).
    <Textarea size="xs" rows={1} classNames={GROW} label={label} value={text} readOnly={readOnly} error={error}
      onChange={(e) => {
        const t = e.currentTarget.value;
        setText(t);
        const r = parseVariableLines(t);
        setError(r.error);
        if (!r.error) onVars(r.vars);
      }} />
  );
}

const TYPES = [
  { value: 'text', label: 'text' },
  { value: 'json', label: 'JSON' },
  { value: 'file', label: 'file' },
];

export function VariablesField({ thread, readOnly }: { thread: Thread; readOnly: boolean }) {
  const session = useSession()!;
  const ctx = thread.context;
  const vars = ctx.variables;
  const scenarios = ctx.scenarios ?? [];
  const refs = referencedVariables(ctx.systemPrompt);
  const known = new Set<string>([...Object.keys(vars ?? {}), ...BUILTIN_VARIABLES, ...scenarios.flatMap((s) => Object.keys(s.variables))]);
  const missing = refs.filter((r) => !known.has(r));
  return (
    <Stack gap={4}>
      <VariableLines label="Variables (NAME=value per line, used as {{NAME}})" vars={vars} readOnly={readOnly}
        onVars={(v) => session.edit((d) => void (d.context.variables = Object.keys(v).length ? v : undefined), 'variables')} />
      {Object.keys(vars ?? {}).length > 0 && (
        <Group gap={6}>
          {Object.keys(vars ?? {}).map((name) => (
            <Select comboboxProps={DROPDOWN_WHEN_OPEN} key={name} size="xs" w={110} data={TYPES} value={ctx.variableTypes?.[name] ?? 'text'} disabled={readOnly} allowDeselect={false}
              aria-label={`Type of ${name}`} leftSection={<Text size="xs" ff="monospace" truncate>{name}</Text>} leftSectionWidth={50}
              onChange={(t) => session.edit((d) => {
                const types = { ...(d.context.variableTypes ?? {}) };
                if (!t || t === 'text') delete types[name];
                else types[name] = t as 'json' | 'file';
                d.context.variableTypes = Object.keys(types).length ? types : undefined;
              })} />
          ))}
        </Group>
      )}
      {missing.length > 0 && <Text size="xs" c="orange">Not defined, sent as written: {missing.map((m) => `{{${m}}}`).join(', ')}</Text>}
      <Select comboboxProps={DROPDOWN_WHEN_OPEN} size="xs" label="Scenario for the next run" aria-label="Scenario" disabled={readOnly || scenarios.length === 0} allowDeselect={false}
        data={[{ value: '', label: 'none (the variables above)' }, ...scenarios.map((s) => ({ value: s.name, label: s.name }))]}
        value={ctx.scenario ?? ''}
        onChange={(v) => session.edit((d) => void (v ? (d.context.scenario = v) : delete d.context.scenario), 'scenario')} />
      {scenarios.map((s, i) => (
        <Stack key={i} gap={2} pl="xs" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
          <Group gap={4} align="end">
            <TextInput size="xs" label={`Scenario ${i + 1} name`} value={s.name} readOnly={readOnly} style={{ flex: 1 }}
              error={scenarios.some((o, j) => j !== i && o.name === s.name) ? 'Another scenario has this name' : null}
              onChange={(e) => {
                const name = e.currentTarget.value;
                if (!name) return;
                session.edit((d) => {
                  const list = d.context.scenarios!;
                  if (d.context.scenario === list[i].name) d.context.scenario = name;
                  list[i].name = name;
                }, `scenario.name.${i}`);
              }} />
            {!readOnly && (
              <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove scenario ${s.name}`}
                onClick={() => session.edit((d) => {
                  const list = d.context.scenarios!;
                  if (d.context.scenario === list[i].name) delete d.context.scenario;
                  list.splice(i, 1);
                  if (!list.length) delete d.context.scenarios;
                })}>Remove</Button>
            )}
          </Group>
          <VariableLines label={`Values of ${s.name} (NAME=value, overriding the variables)`} vars={s.variables} readOnly={readOnly}
            onVars={(v) => session.edit((d) => void (d.context.scenarios![i].variables = v), `scenario.vars.${i}`)} />
        </Stack>
      ))}
      {!readOnly && (
        <Button size="compact-xs" variant="default" style={{ alignSelf: 'flex-start' }}
          onClick={() => session.edit((d) => {
            const taken = new Set((d.context.scenarios ?? []).map((s) => s.name));
            let n = (d.context.scenarios?.length ?? 0) + 1;
            while (taken.has(`scenario ${n}`)) n++;
            (d.context.scenarios ??= []).push({ name: `scenario ${n}`, variables: {} });
          })}>Add scenario</Button>
      )}
    </Stack>
  );
}
