/**
 * One message: role, text, images (user), thinking and tool calls (assistant, added by hand too);
 * reorder, delete; Branch from here, Run from this message.
 */
import { ActionIcon, Badge, Collapse, Group, Menu, Paper, SegmentedControl, Stack, Text, Anchor } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Message } from '../../../../shared/thread/messages';
import type { Thread } from '../../../../shared/thread/schema';
import { useApp } from '../../state/context';
import { useSession, useThreadMetaField } from '../../state/hooks';
import { PromptEditor } from '../../ui/editors';
import { foldedThinking, formatMs } from '../../ui/format';
import { serverToolLine } from '../../../../shared/thread/server-tools';
import { formatCost, usageLine } from '../../../../shared/protocol/usage';
import { ToolCallList } from './ToolCallList';
import { TemplatePreview } from './TemplatePreview';
import { AddToolCall } from './AddToolCall';
import { AddImageButton, ImagePreview } from './images';
import { ResourceView } from '../mcp/ResourceView';
import { branchFrom, runFromMessage } from '../../state/branching';
import { DocumentPreview } from './documents';
import { useFieldHighlight } from './find-context';
import { highlightRuns } from '../../ui/find-highlight';

/** Convert a message to the other role, keeping what that role can hold. */
function withRole(m: Message, role: Message['role']): Message {
  if (m.role === role) return m;
  const texts = m.content.filter((p) => p.type === 'text');
  if (role === 'assistant') return { id: m.id, role: 'assistant', content: texts.length ? texts : [{ type: 'text', text: '' }] };
  return { id: m.id, role: 'user', content: texts.length ? texts : [{ type: 'text', text: '' }] };
}

/** A message card in the playground. */
export function MessageCard({ thread, index, readOnly }: { thread: Thread; index: number; readOnly: boolean }) {
  const app = useApp();
  const session = useSession()!;
  const version = useThreadMetaField('version') ?? 0;
  const m = thread.context.messages[index];
  const [showThinking, setShowThinking] = useState(false);
  const n = thread.context.messages.length;
  const textIdx = m.content.findIndex((p) => p.type === 'text');
  const text = textIdx >= 0 ? (m.content[textIdx] as { text: string }).text : '';
  const thinking = m.role === 'assistant' ? m.content.filter((p) => p.type === 'thinking').map((p) => (p as { thinking: string }).thinking).join('\n') : '';
  const textHighlight = useFieldHighlight(m.id, 'text');
  const thinkingHighlight = useFieldHighlight(m.id, 'thinking');
  // Find's current match is in the folded thinking: unfold it.
  const thinkingCurrent = (thinkingHighlight?.current ?? -1) >= 0;
  useEffect(() => {
    if (thinkingCurrent) setShowThinking(true);
  }, [thinkingCurrent]);
  /**
   * The editor of the message's text is bound to its `Y.Text` (typing goes into it, other
   * windows' typing comes in around the cursor); the message has none until a text part is
   * added: then the editor's first keystroke adds it ({@link setText}), and the editor binds.
   */
  const bound = textIdx >= 0 ? session.boundText({ messageId: m.id, part: textIdx, field: 'text' }) : undefined;
  /** Set the message's text, adding a text part when it has none. */
  const setText = (t: string) =>
    session.edit((d) => {
      // By id, not by this card's index: another window's delete may have arrived before this
      // card rendered again, and the index would then name another message.
      const msg = d.context.messages.find((x) => x.id === m.id);
      if (!msg) return;
      const i = msg.content.findIndex((p) => p.type === 'text');
      if (i >= 0) (msg.content[i] as { text: string }).text = t;
      else (msg.content as { type: 'text'; text: string }[]).push({ type: 'text', text: t });
    }, `msg.${m.id}.text`);
  // Index patches, not Immer's splice patches: another window's edits of other messages survive.
  // The message's index now, by id (this card's `index` may predate another window's edit).
  const at = () => session.thread.context.messages.findIndex((x) => x.id === m.id);
  const move = (by: number) => { const i = at(); if (i < 0 || i + by < 0 || i + by >= session.thread.context.messages.length) return; session.edit((d) => void d.context.messages.splice(i + by, 0, ...d.context.messages.splice(i, 1))); };
  const remove = () => { const i = at(); if (i < 0) return; session.edit((d) => void d.context.messages.splice(i, 1)); };
  return (
    <Paper withBorder p="xs" radius="sm" aria-label={`${m.role} message ${index + 1}`} tabIndex={-1} data-message-card style={{ borderLeft: `3px solid var(--mantine-color-${m.role === 'user' ? 'blue' : 'grape'}-5)` }}>
      <Group gap={6} mb={4} wrap="nowrap">
        <SegmentedControl size="xs" value={m.role} disabled={readOnly} aria-label={`Role of message ${index + 1}`}
          data={[{ value: 'user', label: 'user' }, { value: 'assistant', label: 'assistant' }]}
          onChange={(r) => session.edit((d) => { const i = d.context.messages.findIndex((x) => x.id === m.id); if (i >= 0) d.context.messages[i] = withRole(d.context.messages[i] as Message, r as Message['role']) as never; })} />
        {m.role === 'assistant' && m.model && <Text size="xs" c="dimmed" truncate>{m.model}</Text>}
        {m.role === 'assistant' && m.usage && <Text size="xs" c="dimmed" title={usageLine(m.usage)}>{m.usage.inputTokens}→{m.usage.outputTokens} tok{m.usage.costUsd !== undefined ? ` · ${formatCost(m.usage.costUsd)}` : ''}</Text>}
        {m.role === 'assistant' && m.timing?.durationMs !== undefined && <Text size="xs" c="dimmed">{formatMs(m.timing.durationMs)}</Text>}
        <div style={{ flex: 1 }} />
        {!app.host.presentational && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon size="sm" variant="subtle" aria-label={`More actions for message ${index + 1}`}>⋯</ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => void branchFrom(app, { messageId: m.id })}>Branch from here</Menu.Item>
              <Menu.Item disabled={readOnly} onClick={() => void runFromMessage(app, m.id)}>Run from this message</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
        {!readOnly && (
          <Group gap={2} wrap="nowrap">
            <ActionIcon size="sm" variant="subtle" aria-label={`Move message ${index + 1} up`} disabled={index === 0} onClick={() => move(-1)}>↑</ActionIcon>
            <ActionIcon size="sm" variant="subtle" aria-label={`Move message ${index + 1} down`} disabled={index === n - 1} onClick={() => move(1)}>↓</ActionIcon>
            <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Delete message ${index + 1}`} onClick={remove}>×</ActionIcon>
          </Group>
        )}
      </Group>
      <Stack gap={6}>
        {thinking && (
          <div>
            <Anchor component="button" type="button" size="xs" c="dimmed" onClick={() => setShowThinking((s) => !s)} aria-expanded={showThinking}>
              {showThinking ? '▾ thinking' : `▸ thinking: ${foldedThinking(thinking, false)}`}
            </Anchor>
            <Collapse expanded={showThinking}>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }} ff="monospace">{highlightRuns(thinking, thinkingHighlight)}</Text>
            </Collapse>
          </div>
        )}
        {/* A reply of tool calls only has no text part: offered by a button, so the editor does
            not vanish when its text is cleared (the emptied part stays). */}
        {(m.role === 'user' || textIdx >= 0 || !m.toolCalls?.length) && (
          <div data-message-text>
            <PromptEditor label={`Text of message ${index + 1}`} value={text} bound={bound} readOnly={readOnly} placeholder={m.role === 'user' ? 'User message' : 'Assistant reply'} onChange={setText} highlight={textHighlight} />
          </div>
        )}
        <TemplatePreview threadId={thread.id} place={`message:${m.id}`} label={`message ${index + 1}`} version={version}
          source={m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n')}
          literal={thread.settings?.literal ? 'the thread is literal' : m.role === 'assistant' && m.model ? 'written by a model' : undefined} />
        {m.role === 'assistant' && textIdx < 0 && !!m.toolCalls?.length && !readOnly && (
          <Anchor component="button" type="button" size="xs" onClick={() => setText('')} aria-label={`Add text to message ${index + 1}`} style={{ alignSelf: 'flex-start' }}>
            + reply text
          </Anchor>
        )}
        {m.role === 'user' && m.content.map((p, k) => {
          const onRemove = readOnly ? undefined : () => session.edit((d) => void d.context.messages.find((x) => x.id === m.id)?.content.splice(k, 1));
          if (p.type === 'image') return <ImagePreview key={k} part={p} onRemove={onRemove} />;
          if (p.type === 'document') return <DocumentPreview key={k} part={p} onRemove={onRemove} />;
          if (p.type === 'resource') return <ResourceView key={k} resource={p.resource} onRemove={onRemove} />;
          return null;
        })}
        {m.role === 'user' && !readOnly && (
          <Group><AddImageButton onImage={(img) => session.edit((d) => void (d.context.messages.find((x) => x.id === m.id)?.content as unknown[] | undefined)?.push(img))} onError={(e) => app.fail('Could not add the image', e, 'Pick a PNG, JPEG, GIF or WebP file.')} /></Group>
        )}
        {m.role === 'assistant' && m.content.map((p, k) => p.type === 'server_tool' && (
          <Text key={`s${k}`} size="xs" c="dimmed" ff="monospace" aria-label={`provider-run tool activity ${k + 1}`} title="Run by the provider; sent back unchanged on the next turn">⚙ {serverToolLine(p.block)}</Text>
        ))}
        {m.role === 'assistant' && m.errorMessage && <Badge color="red" variant="light" style={{ textTransform: 'none' }}>error: {m.errorMessage}</Badge>}
        {m.role === 'assistant' && !!m.toolCalls?.length && <ToolCallList thread={thread} mi={index} calls={m.toolCalls} readOnly={readOnly} />}
        {m.role === 'assistant' && !readOnly && <AddToolCall thread={thread} messageId={m.id} />}
      </Stack>
    </Paper>
  );
}
