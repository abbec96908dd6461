/**
 * The playground as it was before the message list was virtualised (renderer/src/features/
 * playground/Playground.tsx at that time), kept only as the message-list benchmark's baseline:
 * every message card mounted at once, every editor made at once.
 */
import { Badge, Button, Divider, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useApp } from '../../renderer/src/state/context';
import { useSession, useThread, useThreadMeta } from '../../renderer/src/state/hooks';
import { newId } from '../../shared/thread/ids';
import { VariablesField } from '../../renderer/src/features/playground/VariablesField';
import { StartPanel } from '../../renderer/src/features/playground/StartPanel';
import { PromptEditor } from '../../renderer/src/ui/editors';
import { ErrorNotice } from '../../renderer/src/ui/ErrorNotice';
import { ModelSection } from '../../renderer/src/features/playground/ModelSection';
import { ToolsSection } from '../../renderer/src/features/playground/ToolsSection';
import { MessageCard } from '../../renderer/src/features/playground/MessageCard';
import { RunBar } from '../../renderer/src/features/playground/RunBar';
import { applyTyping } from '../multi-window/json-path/text-merge';
import { distinctKeys, repeatedIds } from '../../renderer/src/state/repeated-ids';
import { DuplicateIdsNotice } from '../../renderer/src/features/playground/DuplicateIdsNotice';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={4} component="section" aria-label={title}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">{title}</Text>
      {children}
    </Stack>
  );
}

/** The thread playground. */
export function OldPlayground() {
  const app = useApp();
  const session = useSession();
  const thread = useThread();
  const meta = useThreadMeta();
  if (!session || !thread || !meta) return <StartPanel />;
  const editable = !app.host.presentational && !meta.runningRunId;
  // Repeated message or tool call ids: read-only until they get new ids (DuplicateIdsNotice).
  const repeats = repeatedIds(thread).length > 0;
  const readOnly = !editable || repeats;
  const keys = distinctKeys(thread.context.messages.map((m) => m.id));
  const addMessage = (role: 'user' | 'assistant') =>
    session.edit((d) => void d.context.messages.push(role === 'user' ? { id: newId('msg'), role, content: [{ type: 'text', text: '' }] } : { id: newId('msg'), role, content: [{ type: 'text', text: '' }] }));
  return (
    <Stack gap={0} h="100%" style={{ minHeight: 0 }}>
      <Stack gap={6} p="xs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap="xs" wrap="nowrap">
          <Title order={5} style={{ flex: 1, minWidth: 0 }} lineClamp={1}>{thread.title}</Title>
          {meta.runningRunId && <Badge color="blue" variant="light">running — read-only</Badge>}
          {repeats && !meta.runningRunId && <Badge color="orange" variant="light">repeated ids — read-only</Badge>}
          <Text size="xs" c="dimmed" ff="monospace" title="Document version">v{meta.version}</Text>
        </Group>
        <RunBar thread={thread} />
        {meta.error && <ErrorNotice title="Edit problem" message={meta.error.message} details={meta.error.details} />}
        <DuplicateIdsNotice thread={thread} canEdit={editable} />
      </Stack>
      <ScrollArea style={{ flex: 1 }} type="auto">
        <Stack gap="md" p="sm">
          <Section title="Model"><ModelSection thread={thread} readOnly={readOnly} /></Section>
          <Section title="Tools"><ToolsSection thread={thread} readOnly={readOnly} /></Section>
          <Section title="System prompt">
            <PromptEditor label="System prompt" value={thread.context.systemPrompt} readOnly={readOnly} placeholder="You are…" minHeight={48}
              onChange={(t, before) => session.edit((d) => void (d.context.systemPrompt = applyTyping(before, t, d.context.systemPrompt)), 'systemPrompt')} />
            <VariablesField thread={thread} readOnly={readOnly} />
          </Section>
          <Divider />
          <Section title={`Messages (${thread.context.messages.length})`}>
            {thread.context.messages.length === 0 && <Text size="sm" c="dimmed">No messages — add a user message, then Run.</Text>}
            {thread.context.messages.map((m, i) => <MessageCard key={keys[i]} thread={thread} index={i} readOnly={readOnly} />)}
            {!readOnly && (
              <Group gap={6}>
                <Button size="compact-xs" variant="light" onClick={() => addMessage('user')}>Add user message</Button>
                <Button size="compact-xs" variant="subtle" onClick={() => addMessage('assistant')}>Add assistant message</Button>
              </Group>
            )}
          </Section>
        </Stack>
      </ScrollArea>
    </Stack>
  );
}
