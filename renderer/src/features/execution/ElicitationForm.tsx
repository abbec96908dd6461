/**
 * Answers an MCP elicitation (elicitation/create, MCP 2025-06-18) while the tool node waits
 * in `awaiting_input`: the server's message, a JSON editor for the requested object prefilled
 * from the schema's defaults, and Accept / Decline / Cancel, sent with `run.input`.
 */
import { useMemo, useState } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { useApp } from '../../state/context';
import { JsonEditor } from '../../ui/editors';
import { checkAgainstSchema } from '../playground/schema-check';

export interface ElicitationRequest {
  kind: 'elicitation';
  message: string;
  schema: unknown;
}

/** The starting answer: each property's default, else an empty value of its type. */
export function initialAnswer(schema: unknown): Record<string, unknown> {
  const props = (schema as { properties?: Record<string, { type?: string; default?: unknown; enum?: unknown[] }> })?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props)) {
    if (p.default !== undefined) out[k] = p.default;
    else if (p.enum?.length) out[k] = p.enum[0];
    else out[k] = p.type === 'boolean' ? false : p.type === 'number' || p.type === 'integer' ? 0 : '';
  }
  return out;
}

export function ElicitationForm({ runId, nodeId, request }: { runId: string; nodeId: string; request: ElicitationRequest }) {
  const app = useApp();
  const initial = useMemo(() => JSON.stringify(initialAnswer(request.schema), null, 2), [request.schema]);
  const [text, setText] = useState(initial);
  const [sent, setSent] = useState(false);
  let parsed: unknown;
  let error: string | null;
  try {
    parsed = JSON.parse(text);
    error = checkAgainstSchema(request.schema as Record<string, unknown> | undefined, parsed);
  } catch (err) {
    error = `Not JSON: ${(err as Error).message}`;
  }
  const answer = async (value: unknown) => {
    setSent(true);
    try {
      await app.host.call('run.input', { runId, nodeId, value });
    } catch (err) {
      setSent(false);
      app.fail('Could not send the answer', err, 'The run may have ended; run the tool again.');
    }
  };
  return (
    <Paper withBorder p={6} mt={4} onClick={(e) => e.stopPropagation()} aria-label="Elicitation request">
      <Text size="xs" fw={600}>The server asks:</Text>
      <Text size="sm" mb={4}>{request.message}</Text>
      <JsonEditor label="Elicitation answer" value={text} onChange={setText} error={error ?? undefined} minHeight={60} maxHeight={200} />
      <Group gap={6} mt={6}>
        <Button size="compact-xs" disabled={sent || !!error} onClick={() => void answer({ action: 'accept', content: parsed })}>Accept</Button>
        <Button size="compact-xs" variant="default" disabled={sent} onClick={() => void answer({ action: 'decline' })}>Decline</Button>
        <Button size="compact-xs" variant="subtle" color="gray" disabled={sent} onClick={() => void answer({ action: 'cancel' })}>Cancel</Button>
      </Group>
    </Paper>
  );
}
