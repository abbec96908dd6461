/** The "Add tool call" row of an assistant message: a tool call made by hand, to craft a test case. */
import { Button, Group, Select, TextInput, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { toolNameProblem } from '../../../../shared/thread/tools';
import type { Thread } from '../../../../shared/thread/schema';
import { useSession } from '../../state/hooks';
import { newId } from '../../../../shared/thread/ids';
import { addToolCall, newToolCall, toolChoices } from './tool-call-edits';
import { DROPDOWN_WHEN_OPEN } from '../../ui/dropdown';

/**
 * Pick one of the thread's tools ("Tool of the new call"; a text field when the thread has no
 * tools, holding the name to the tool name rule, TOOL_NAME_PATTERN, and saying what is wrong
 * with it) and add a call to it with arguments `{}` to the assistant message `messageId`. The
 * call is pending: its arguments are edited and checked against the tool's schema in its
 * tool call card, and Run tool / Run all tools run it when the message is the last one. One
 * edit, one undo step.
 */
export function AddToolCall({ thread, messageId }: { thread: Thread; messageId: string }) {
  const session = useSession()!;
  const choices = toolChoices(thread.context.tools);
  const [picked, setPicked] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const name = choices.length ? (choices.find((c) => c.value === picked) ?? choices[0]).value : typed.trim();
  /** Why the name cannot be added: typed or picked (a thread's tool may carry a name the model APIs refuse). */
  const problem = name ? toolNameProblem(name) : choices.length ? null : 'Type the name of the tool to call first';
  const add = () => {
    if (!name || problem) return;
    const id = newId('call'); // call_<uuid>, as imported calls
    // The key is the new call's own, so this step never merges with another edit.
    if (session.edit((d) => void addToolCall(d as Thread, messageId, newToolCall(name, id)), `toolCall.add.${id}`)) setTyped('');
  };
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      {choices.length > 0 ? (
        <Select comboboxProps={DROPDOWN_WHEN_OPEN} size="xs" w={220} aria-label="Tool of the new call" data={choices} value={name} allowDeselect={false}
          searchable={choices.length > 8} error={problem ?? undefined} onChange={(v) => v && setPicked(v)} />
      ) : (
        <TextInput size="xs" w={220} aria-label="Tool of the new call" placeholder="Tool name (the thread has no tools)" value={typed}
          error={name ? problem ?? undefined : undefined} onChange={(e) => setTyped(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Enter' && add()} />
      )}
      <Tooltip label={problem ?? `Add a call of ${name} with arguments {}: edit them, then Run tool or type a result`}>
        <Button size="compact-xs" variant="light" disabled={!!problem} onClick={add}>Add tool call</Button>
      </Tooltip>
    </Group>
  );
}
