/** Middle panel: the open thread — model, tools, system prompt, messages, run actions. */
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { ThreadTitle } from './ThreadTitle';
import { useApp } from '../../state/context';
import { useSession, useThread, useThreadMeta } from '../../state/hooks';
import { newId } from '../../../../shared/thread/ids';
import { VariablesField } from './VariablesField';
import { StartPanel } from './StartPanel';
import { PromptEditor, TemplateVariablesContext } from '../../ui/editors';
import { TemplatePreview } from './TemplatePreview';
import { templateVariables } from './template-vars';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ModelSection } from './ModelSection';
import { ToolsSection } from './ToolsSection';
import { MessageCard } from './MessageCard';
import { RunBar } from './RunBar';
import { applyTyping } from '../../state/text-merge';
import { distinctKeys, repeatedIds } from '../../state/repeated-ids';
import { DuplicateIdsNotice } from './DuplicateIdsNotice';
import { FileGoneNotice } from '../workspace/FileGoneNotice';
import { BranchLinks } from './BranchLinks';
import { PlaygroundBody } from './PlaygroundBody';
import { McpBrowser } from '../mcp/McpBrowser';
import { useState } from 'react';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={4} component="section" aria-label={title}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">{title}</Text>
      {children}
    </Stack>
  );
}

/** The thread playground. */
export function Playground() {
  const app = useApp();
  const session = useSession();
  const thread = useThread();
  const meta = useThreadMeta();
  const [browsing, setBrowsing] = useState(false);
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
          <ThreadTitle title={thread.title} readOnly={!editable} />
          {meta.runningRunId && <Badge color="blue" variant="light">running — read-only</Badge>}
          {repeats && !meta.runningRunId && <Badge color="orange" variant="light">repeated ids — read-only</Badge>}
          <Text size="xs" c="dimmed" ff="monospace" title="Document version">v{meta.version}</Text>
        </Group>
        <BranchLinks thread={thread} />
        <RunBar thread={thread} />
        {meta.error && <ErrorNotice title="Edit problem" message={meta.error.message} details={meta.error.details} />}
        <DuplicateIdsNotice thread={thread} canEdit={editable} />
        <FileGoneNotice />
      </Stack>
      <TemplateVariablesContext.Provider value={templateVariables(thread)}>
      <PlaygroundBody
        settings={<>
          <Section title="Model"><ModelSection thread={thread} readOnly={readOnly} /></Section>
          <Section title="Tools"><ToolsSection thread={thread} readOnly={readOnly} /></Section>
          <Section title="System prompt">
            <PromptEditor label="System prompt" value={thread.context.systemPrompt} readOnly={readOnly} placeholder="You are…" minHeight={48}
              onChange={(t, before) => session.edit((d) => void (d.context.systemPrompt = applyTyping(before, t, d.context.systemPrompt)), 'systemPrompt')} />
            <TemplatePreview threadId={thread.id} place="systemPrompt" label="system prompt" source={thread.context.systemPrompt} version={meta.version} />
            <VariablesField thread={thread} readOnly={readOnly} />
          </Section>
        </>}
        messages={
          <Section title={`Messages (${thread.context.messages.length})`}>
            {thread.context.messages.length === 0 && <Text size="sm" c="dimmed">No messages — add a user message, then Run.</Text>}
            {thread.context.messages.map((m, i) => <MessageCard key={keys[i]} thread={thread} index={i} readOnly={readOnly} />)}
            {!readOnly && (
              <Group gap={6}>
                <Button size="compact-xs" variant="light" onClick={() => addMessage('user')}>Add user message</Button>
                <Button size="compact-xs" variant="subtle" onClick={() => addMessage('assistant')}>Add assistant message</Button>
                <Button size="compact-xs" variant="subtle" onClick={() => setBrowsing(true)}>MCP resources and prompts</Button>
              </Group>
            )}
          </Section>
        }
      />
      </TemplateVariablesContext.Provider>
      {browsing && <McpBrowser readOnly={readOnly} onClose={() => setBrowsing(false)} />}
    </Stack>
  );
}
