/**
 * Review of an MCP sampling request (sampling/createMessage) before the model runs, shown on
 * the tool row while it waits (thread setting "Review sampling"): the server's request as
 * JSON — messages, system prompt, max tokens, model preferences — editable, then Approve (the
 * model answers the request as shown) or Reject (the server gets error -1, "user rejected").
 */
import { useMemo, useState } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { useRunInput } from './use-run-input';
import { JsonEditor } from '../../ui/editors';

export interface SamplingRequest {
  kind: 'sampling';
  server: string;
  params: Record<string, unknown>;
}

/** Why edited sampling params cannot be sent, or null. */
export function samplingParamsProblem(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'The request must be a JSON object.';
  const messages = (value as { messages?: unknown }).messages;
  if (!Array.isArray(messages) || messages.length === 0) return '"messages" must be a non-empty array.';
  for (const [i, m] of messages.entries()) {
    const role = (m as { role?: unknown } | null)?.role;
    if (role !== 'user' && role !== 'assistant') return `messages/${i}/role must be "user" or "assistant".`;
  }
  const max = (value as { maxTokens?: unknown }).maxTokens;
  if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 1)) return '"maxTokens" must be a positive integer.';
  return null;
}

export function SamplingReview({ runId, nodeId, request }: { runId: string; nodeId: string; request: SamplingRequest }) {
  const initial = useMemo(() => JSON.stringify(request.params, null, 2), [request.params]);
  const [text, setText] = useState(initial);
  const { sent, answer } = useRunInput(runId, nodeId);
  let parsed: unknown;
  let error: string | null;
  try {
    parsed = JSON.parse(text);
    error = samplingParamsProblem(parsed);
  } catch (err) {
    error = `Not JSON: ${(err as Error).message}`;
  }
  return (
    <Paper withBorder p={6} mt={4} onClick={(e) => e.stopPropagation()} aria-label="Sampling review">
      <Text size="xs" fw={600}>The server “{request.server}” asks the model (sampling/createMessage). Review it, edit it if you like, then approve:</Text>
      <JsonEditor label="Sampling request" value={text} onChange={setText} error={error ?? undefined} minHeight={60} maxHeight={260} />
      <Group gap={6} mt={6}>
        <Button size="compact-xs" disabled={sent || !!error} onClick={() => void answer({ action: 'approve', params: parsed })}>Approve</Button>
        <Button size="compact-xs" variant="default" color="red" disabled={sent} onClick={() => void answer({ action: 'reject' })}>Reject</Button>
      </Group>
    </Paper>
  );
}
