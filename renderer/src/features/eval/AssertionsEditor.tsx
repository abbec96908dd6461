/** The dataset's assertions (checks of every case) as a list, with a form per assertion type. */
import { useState } from 'react';
import { ActionIcon, Button, Checkbox, Group, NumberInput, Paper, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import type { Assertion, AssertionType } from '../../../../shared/eval/dataset';
import { ASSERTION_LABELS, newAssertion } from './assertion-defaults';

/** A JSON value typed as text: `onValue` gets it only once it parses (and `check` accepts it). */
function JsonField({ label, value, onValue, check }: { label: string; value: unknown; onValue(v: unknown): void; check?(v: unknown): string | null }) {
  const [text, setText] = useState(() => (value === undefined ? '' : JSON.stringify(value)));
  const [error, setError] = useState<string | null>(null);
  return (
    <Textarea
      label={label}
      size="xs"
      autosize
      minRows={1}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      value={text}
      error={error}
      onChange={(e) => {
        const t = e.currentTarget.value;
        setText(t);
        if (!t.trim()) return (setError(null), onValue(undefined));
        try {
          const v = JSON.parse(t);
          const why = check?.(v) ?? null;
          setError(why);
          if (!why) onValue(v);
        } catch (err) {
          setError(`not JSON: ${(err as Error).message}`);
        }
      }}
    />
  );
}

const num = (v: string | number) => (typeof v === 'number' ? v : undefined);

/** The fields of one assertion. */
function Fields({ a, n, set }: { a: Assertion; n: number; set(a: Assertion): void }) {
  const at = (what: string) => `${what} of assertion ${n}`;
  switch (a.type) {
    case 'equals':
    case 'contains':
    case 'not_contains':
      return (
        <Group gap="xs" align="flex-end">
          <TextInput size="xs" style={{ flex: 1 }} label="Text" aria-label={at('Text')} description="Empty: the case's expected value" value={a.value ?? ''} onChange={(e) => set({ ...a, value: e.currentTarget.value })} />
          <Checkbox size="xs" label="Ignore case" checked={!!a.ignoreCase} onChange={(e) => set({ ...a, ignoreCase: e.currentTarget.checked || undefined })} />
        </Group>
      );
    case 'regex':
      return (
        <Group gap="xs">
          <TextInput size="xs" style={{ flex: 1 }} label="Pattern" aria-label={at('Pattern')} value={a.pattern} onChange={(e) => set({ ...a, pattern: e.currentTarget.value })} />
          <TextInput size="xs" w={80} label="Flags" aria-label={at('Flags')} value={a.flags ?? ''} onChange={(e) => set({ ...a, flags: e.currentTarget.value || undefined })} />
        </Group>
      );
    case 'json_schema':
      return (
        <Stack gap={4}>
          <TextInput size="xs" label="Tool" aria-label={at('Tool')} description="Empty: the final text is read as JSON" value={a.tool ?? ''} onChange={(e) => set({ ...a, tool: e.currentTarget.value || undefined })} />
          <JsonField label="JSON Schema" value={a.schema} check={(v) => (v && typeof v === 'object' && !Array.isArray(v) ? null : 'a JSON Schema is an object')} onValue={(v) => v !== undefined && set({ ...a, schema: v as Record<string, unknown> })} />
        </Stack>
      );
    case 'tool_called':
      return (
        <Stack gap={4}>
          <TextInput size="xs" label="Tool" aria-label={at('Tool')} value={a.tool} onChange={(e) => set({ ...a, tool: e.currentTarget.value })} />
          <JsonField label="Arguments it must contain (JSON, optional)" value={a.arguments} onValue={(v) => set({ ...a, arguments: v })} />
        </Stack>
      );
    case 'tool_not_called':
      return <TextInput size="xs" label="Tool" aria-label={at('Tool')} value={a.tool} onChange={(e) => set({ ...a, tool: e.currentTarget.value })} />;
    case 'turns':
      return (
        <Group gap="xs">
          <NumberInput size="xs" label="At least" min={0} allowDecimal={false} value={a.min ?? ''} onChange={(v) => set({ ...a, min: num(v) })} />
          <NumberInput size="xs" label="At most" min={0} allowDecimal={false} value={a.max ?? ''} onChange={(v) => set({ ...a, max: num(v) })} />
        </Group>
      );
    case 'max_tokens':
    case 'max_cost':
    case 'max_latency':
      return <NumberInput size="xs" label="Limit" aria-label={at('Limit')} min={0} value={a.value} onChange={(v) => set({ ...a, value: num(v) ?? 0 })} />;
    case 'judge':
      return (
        <Stack gap={4}>
          <Textarea size="xs" label="Rubric" aria-label={at('Rubric')} autosize minRows={2} value={a.rubric} onChange={(e) => set({ ...a, rubric: e.currentTarget.value })} />
          <Group gap="xs">
            <TextInput size="xs" style={{ flex: 1 }} label="Judge model" description="provider/model; empty: the case's own model" value={typeof a.model === 'string' ? a.model : ''} onChange={(e) => set({ ...a, model: e.currentTarget.value || undefined })} />
            <NumberInput size="xs" w={120} label="Pass at score" min={1} max={5} value={a.threshold ?? 3} onChange={(v) => set({ ...a, threshold: num(v) })} />
          </Group>
        </Stack>
      );
  }
}

/** Edits `assertions`; every change goes to `onChange` as a new list. */
export function AssertionsEditor({ assertions, onChange }: { assertions: Assertion[]; onChange(a: Assertion[]): void }) {
  const [type, setType] = useState<AssertionType>('contains');
  // Keys keep each form's local text (JSON fields) with its assertion when one above is removed.
  const [keys, setKeys] = useState(() => assertions.map((_, i) => i));
  const [next, setNext] = useState(assertions.length);
  const replace = (i: number, a: Assertion) => onChange(assertions.map((x, j) => (j === i ? a : x)));
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">Assertions (every case)</Text>
      {assertions.length === 0 && <Text size="xs" c="dimmed">No assertions yet — a case then passes when its run completes.</Text>}
      {assertions.map((a, i) => (
        <Paper key={keys[i] ?? i} withBorder p="xs" aria-label={`assertion ${i + 1}, ${ASSERTION_LABELS[a.type]}`}>
          <Group justify="space-between" mb={4}>
            <Text size="xs" fw={600}>{i + 1}. {ASSERTION_LABELS[a.type]}</Text>
            <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Remove assertion ${i + 1}`} onClick={() => { setKeys(keys.filter((_, j) => j !== i)); onChange(assertions.filter((_, j) => j !== i)); }}>×</ActionIcon>
          </Group>
          <Fields a={a} n={i + 1} set={(x) => replace(i, x)} />
        </Paper>
      ))}
      <Group gap="xs">
        <Select size="xs" aria-label="Assertion type" allowDeselect={false} value={type} onChange={(v) => v && setType(v as AssertionType)} data={Object.entries(ASSERTION_LABELS).map(([value, label]) => ({ value, label }))} />
        <Button size="xs" variant="light" onClick={() => { setKeys([...keys, next]); setNext(next + 1); onChange([...assertions, newAssertion(type)]); }}>Add assertion</Button>
      </Group>
    </Stack>
  );
}
