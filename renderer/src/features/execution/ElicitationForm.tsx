/**
 * Answers an MCP elicitation (elicitation/create, MCP 2025-06-18 / 2025-11-25) while the tool
 * node waits in `awaiting_input`: the server's message, a form built from the requested schema
 * (elicitation-fields.ts: labels, descriptions, required marks, e-mail / URL / date inputs,
 * bounded numbers, single and multiple choices), or the answer as JSON for any other shape,
 * and Accept / Decline / Cancel, sent with `run.input`.
 */
import { useMemo, useState } from 'react';
import { Anchor, Button, Checkbox, Group, MultiSelect, NumberInput, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useRunInput } from './use-run-input';
import { JsonEditor } from '../../ui/editors';
import { checkAgainstSchema } from '../playground/schema-check';
import { answerContent, elicitationFields, fieldProblems, initialValue, type ElicitationField } from './elicitation-fields';

export interface ElicitationRequest {
  kind: 'elicitation';
  message: string;
  schema: unknown;
}

const INPUT_TYPE: Record<string, string> = { email: 'email', uri: 'url', date: 'date' };

/**
 * A JSON value typed as text. The text is the person's own (kept while it does not parse, and
 * never reformatted: the parsed value is not fed back into the editor).
 */
function JsonText({ label, value, onChange }: { label: string; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(() => (value === undefined ? '' : JSON.stringify(value)));
  const change = (t: string) => {
    setText(t);
    try {
      onChange(t.trim() ? JSON.parse(t) : undefined);
    } catch {
      // Not valid JSON yet: the answer keeps the last value that parsed.
    }
  };
  return <JsonEditor label={label} value={text} onChange={change} minHeight={30} maxHeight={120} />;
}

function Field({ f, value, onChange }: { f: ElicitationField; value: unknown; onChange: (v: unknown) => void }) {
  const common = { label: f.label, description: f.description, required: f.required, size: 'xs' as const };
  switch (f.kind) {
    case 'boolean':
      return <Checkbox label={f.label} description={f.description} size="xs" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'number':
      return (
        <NumberInput {...common} min={f.min} max={f.max} allowDecimal={!f.integer} clampBehavior="none" value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          onChange={(v) => onChange(v === '' ? undefined : v)} />
      );
    case 'choice':
      return <Select {...common} data={f.options} value={typeof value === 'string' ? value : null} clearable={!f.required} onChange={(v) => onChange(v ?? undefined)} allowDeselect={!f.required} />;
    case 'choices':
      return <MultiSelect {...common} data={f.options} value={Array.isArray(value) ? (value as string[]) : []} maxValues={f.max} onChange={onChange} />;
    case 'text':
      return (
        <TextInput {...common} type={INPUT_TYPE[f.format ?? ''] ?? 'text'} placeholder={f.format === 'date-time' ? 'YYYY-MM-DDTHH:MM:SSZ' : undefined}
          value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.currentTarget.value)} />
      );
    default:
      return (
        <Stack gap={2}>
          <Text size="xs" fw={500}>{f.label}{f.required ? ' *' : ''}</Text>
          {f.description && <Text size="xs" c="dimmed">{f.description}</Text>}
          <JsonText label={`${f.label} (JSON)`} value={value} onChange={onChange} />
        </Stack>
      );
  }
}

export function ElicitationForm({ runId, nodeId, request }: { runId: string; nodeId: string; request: ElicitationRequest }) {
  const fields = useMemo(() => elicitationFields(request.schema), [request.schema]);
  const [values, setValues] = useState<Record<string, unknown>>(() => Object.fromEntries(fields.map((f) => [f.key, initialValue(f)])));
  const [asJson, setAsJson] = useState<string | null>(fields.length === 0 ? '{}' : null);
  const { sent, answer } = useRunInput(runId, nodeId);
  let content: unknown;
  let error: string | null;
  if (asJson !== null) {
    try {
      content = JSON.parse(asJson);
      const problems = content && typeof content === 'object' && !Array.isArray(content) ? fieldProblems(fields, content as Record<string, unknown>) : [];
      error = problems.length ? problems.join('; ') : checkAgainstSchema(request.schema as Record<string, unknown> | undefined, content);
    } catch (err) {
      error = `Not JSON: ${(err as Error).message}`;
    }
  } else {
    content = answerContent(fields, values);
    const problems = fieldProblems(fields, content as Record<string, unknown>);
    error = problems.length ? problems.join('; ') : checkAgainstSchema(request.schema as Record<string, unknown> | undefined, content);
  }
  /** Leaves JSON mode taking the JSON's values into the form (a field the JSON leaves out is emptied). */
  const backToForm = () => {
    if (!content || typeof content !== 'object' || Array.isArray(content)) return; // the error says why
    const json = content as Record<string, unknown>;
    setValues(Object.fromEntries(fields.map((f) => [f.key, f.key in json ? json[f.key] : initialValue({ ...f, default: undefined })])));
    setAsJson(null);
  };
  return (
    <Paper withBorder p={6} mt={4} onClick={(e) => e.stopPropagation()} aria-label="Elicitation request">
      <Text size="xs" fw={600}>The server asks:</Text>
      <Text size="sm" mb={4}>{request.message}</Text>
      {asJson === null ? (
        <Stack gap={6}>
          {fields.map((f) => <Field key={f.key} f={f} value={values[f.key]} onChange={(v) => setValues((old) => ({ ...old, [f.key]: v }))} />)}
        </Stack>
      ) : (
        <JsonEditor label="Elicitation answer" value={asJson} onChange={setAsJson} minHeight={60} maxHeight={200} />
      )}
      {error && <Text size="xs" c="red" mt={4} role="alert">{error}</Text>}
      <Group gap={6} mt={6}>
        <Button size="compact-xs" disabled={sent || !!error} onClick={() => void answer({ action: 'accept', content })}>Accept</Button>
        <Button size="compact-xs" variant="default" disabled={sent} onClick={() => void answer({ action: 'decline' })}>Decline</Button>
        <Button size="compact-xs" variant="subtle" color="gray" disabled={sent} onClick={() => void answer({ action: 'cancel' })}>Cancel</Button>
        <div style={{ flex: 1 }} />
        {fields.length > 0 && (
          <Anchor component="button" type="button" size="xs" onClick={() => (asJson === null ? setAsJson(JSON.stringify(content ?? {}, null, 2)) : backToForm())}>
            {asJson === null ? 'Edit as JSON' : 'Back to the form'}
          </Anchor>
        )}
      </Group>
    </Paper>
  );
}
