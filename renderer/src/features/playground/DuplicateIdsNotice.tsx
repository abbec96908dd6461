/**
 * The notice over a thread that repeats identifiers (validate.ts `findDuplicates`): which ids
 * and where, in the playground's words (message 3, tool call 1 of message 5, tool 2). Repeated
 * message or tool call ids make the thread read-only, because edits and runs find messages and
 * calls by id; "Give duplicates new ids" renames every repeat but the first in one edit (one
 * undo step, ids.ts `giveDuplicatesNewIds`). Repeated tool names are only named: a tool's name
 * is what the model sees, so the person renames one in Tools.
 */
import { Alert, Button, List, Text } from '@mantine/core';
import { useMemo } from 'react';
import type { Thread } from '../../../../shared/thread/schema';
import { findDuplicates, type Duplicate } from '../../../../shared/thread/validate';
import { giveDuplicatesNewIds } from '../../../../shared/thread/ids';
import { useSession } from '../../state/hooks';

/** Where a JSON pointer of an id or a tool name is, as the playground names it. */
function place(pointer: string): string {
  const call = /^\/context\/messages\/(\d+)\/toolCalls\/(\d+)\//.exec(pointer);
  if (call) return `tool call ${Number(call[2]) + 1} of message ${Number(call[1]) + 1}`;
  const message = /^\/context\/messages\/(\d+)\//.exec(pointer);
  if (message) return `message ${Number(message[1]) + 1}`;
  const tool = /^\/context\/tools\/(\d+)\//.exec(pointer);
  return tool ? `tool ${Number(tool[1]) + 1}` : pointer;
}

const KIND = { message: 'Message id', toolCall: 'Tool call id', toolName: 'Tool name' } as const;

/** One line: `Message id "m1" is used by message 1 and message 3.` */
export function describeRepeat(d: Duplicate): string {
  const places = d.pointers.map(place);
  const list = places.length === 2 ? places.join(' and ') : `${places.slice(0, -1).join(', ')} and ${places.at(-1)}`;
  return `${KIND[d.kind]} ${JSON.stringify(d.id)} is used by ${list}.`;
}

/** Shown above the thread while it repeats an id or a tool name; nothing otherwise. `canEdit`: not running, not the viewer. */
export function DuplicateIdsNotice({ thread, canEdit }: { thread: Thread; canEdit: boolean }) {
  const session = useSession();
  // Only ids and names count: not found again on an edit of settings or the system prompt.
  const { messages, tools } = thread.context;
  const found = useMemo(() => findDuplicates({ context: { messages, tools } }), [messages, tools]);
  if (!found.length) return null;
  const ids = found.filter((d) => d.kind !== 'toolName');
  const names = found.filter((d) => d.kind === 'toolName');
  return (
    <Alert color="orange" variant="light" role="alert" title={ids.length ? 'This thread repeats ids: it is read-only until they are made unique' : 'Tools share a name'}>
      <List size="sm" spacing={2}>
        {found.map((d) => <List.Item key={`${d.kind}:${d.id}`}>{describeRepeat(d)}</List.Item>)}
      </List>
      {ids.length > 0 && (
        <>
          <Text size="sm" c="dimmed" mt={4}>
            Edits and runs find messages and tool calls by id, so they could change the wrong one. New ids go to every repeat after the
            first (each tool call keeps its result); Undo takes them back.
          </Text>
          {canEdit && session && (
            <Button size="compact-sm" mt={6} onClick={() => session.edit((d) => void giveDuplicatesNewIds(d as Thread))}>
              Give duplicates new ids
            </Button>
          )}
        </>
      )}
      {names.length > 0 && (
        <Text size="sm" c="dimmed" mt={4}>
          The model cannot tell tools of one name apart, and Anthropic refuses such a request: rename one in Tools.
        </Text>
      )}
    </Alert>
  );
}
