/**
 * The tool calls of one assistant message, at most {@link TOOL_CALLS_SHOWN} at first: a message
 * with thousands of calls (a model fanning out, an import) mounted a card, and soon two editors,
 * for every one of them, which held the page for seconds. The rest come in steps, by a button.
 * Find's current match in a later call shows that call on its own below the shown part; a call
 * just added while all were shown is shown.
 */
import { Button, Group, Text } from '@mantine/core';
import { useContext, useEffect, useRef, useState } from 'react';
import type { ToolCall } from '../../../../shared/thread/messages';
import type { Thread } from '../../../../shared/thread/schema';
import { distinctKeys } from '../../state/repeated-ids';
import { ToolCallEditor } from './ToolCallEditor';
import { FindContext } from './find-context';

/** Tool calls shown at first, and added by each "Show more". */
export const TOOL_CALLS_SHOWN = 50;

/** Props: the thread, the message's index `mi` and its calls. */
export function ToolCallList({ thread, mi, calls, readOnly }: { thread: Thread; mi: number; calls: ToolCall[]; readOnly: boolean }) {
  const [limit, setLimit] = useState(TOOL_CALLS_SHOWN);
  const messageId = thread.context.messages[mi]?.id;
  const { current } = useContext(FindContext);
  // Find's current match in a call, by the call's id.
  const field = current && current.messageId === messageId ? current.field : undefined;
  const callId = field?.startsWith('args:') ? field.slice(5) : field?.startsWith('result:') ? field.slice(7) : undefined;
  const matched = callId === undefined ? -1 : calls.findIndex((c) => c.id === callId);
  // A call added (by hand, or a run) while every call was shown stays shown.
  const count = useRef(calls.length);
  useEffect(() => {
    if (calls.length > count.current && count.current <= limit) setLimit(Math.max(limit, calls.length));
    count.current = calls.length;
  }, [calls.length, limit]);
  const shown = Math.min(calls.length, limit);
  // Find's current match further down is shown on its own, after the shown part (mounting every
  // call up to it would hold the page as long as showing them all).
  const alone = matched >= shown ? matched : -1;
  const keys = distinctKeys(calls.map((c) => c.id));
  const visible = shown + (alone >= 0 ? 1 : 0);
  return (
    <>
      {calls.slice(0, shown).map((c, ci) => <ToolCallEditor key={keys[ci]} thread={thread} mi={mi} ci={ci} call={c} readOnly={readOnly} />)}
      {alone >= 0 && (
        <>
          {alone > shown && <Text size="xs" c="dimmed">… tool calls {(shown + 1).toLocaleString('en')} to {alone.toLocaleString('en')} not shown …</Text>}
          <ToolCallEditor key={keys[alone]} thread={thread} mi={mi} ci={alone} call={calls[alone]} readOnly={readOnly} />
        </>
      )}
      {visible < calls.length && (
        <Group gap="xs" aria-label={`More tool calls of message ${mi + 1}`} role="group">
          <Text size="xs" c="dimmed">{visible.toLocaleString('en')} of {calls.length.toLocaleString('en')} tool calls shown</Text>
          <Button size="compact-xs" variant="light" onClick={() => setLimit(shown + TOOL_CALLS_SHOWN)}>
            Show {Math.min(calls.length - shown, TOOL_CALLS_SHOWN)} more
          </Button>
          {calls.length - shown > TOOL_CALLS_SHOWN && (
            <Button size="compact-xs" variant="subtle" onClick={() => setLimit(calls.length)} title="Every call gets its card: slow for thousands">
              Show all {calls.length.toLocaleString('en')}
            </Button>
          )}
        </Group>
      )}
    </>
  );
}
