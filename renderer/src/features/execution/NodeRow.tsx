/**
 * One execution-tree row. Subscribes to its own node atom only, so a delta for another node
 * never re-renders it. Streaming text grows in place; thinking is folded.
 */
import { memo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Anchor, Box, Group, Progress, Text } from '@mantine/core';
import type { NodeKind } from '../../../../shared/protocol/nodes';
import { useApp } from '../../state/context';
import type { NodeView } from '../../state/stream-store';
import { StatusBadge, statusWord, statusColor } from '../../ui/status';
import { foldedThinking, formatMs, truncate } from '../../ui/format';
import { ElicitationForm, type ElicitationRequest } from './ElicitationForm';
import { SamplingReview, type SamplingRequest } from './SamplingReview';
import { logText } from '../detail/tool-sections';
import { useJumpToMessage } from './use-jump-to-message';

export interface RowProps {
  nodeId: string;
  runId: string;
  kind: NodeKind;
  name: string;
  level: number;
  posinset: number;
  setsize: number;
  hasChildren: boolean;
  expanded: boolean;
  selected: boolean;
  onToggle(id: string): void;
  onSelect(id: string): void;
  onKey(e: React.KeyboardEvent, id: string): void;
}

/** Accessible name of a row: "tool get-sum, awaiting input". */
export function rowName(kind: NodeKind, name: string, view: NodeView | undefined): string {
  return `${kind} ${name}, ${statusWord(view?.status ?? 'pending')}`;
}

function resultText(output: unknown): string {
  const o = output as { content?: { type: string; text?: string; mimeType?: string; uri?: string }[] } | undefined;
  if (!o?.content) return '';
  return o.content.map((p) => (p.type === 'text' ? p.text : p.type === 'image' ? `[image ${p.mimeType}]` : p.type === 'audio' ? `[audio ${p.mimeType}]` : `[${p.type} ${p.uri ?? ''}]`)).join('\n');
}

/** The row. */
export const NodeRow = memo(function NodeRow(p: RowProps) {
  const app = useApp();
  const view = useAtomValue(app.stream.nodeAtom(p.nodeId));
  const [thinkingOpen, setThinkingOpen] = useState(false);
  // Double-click: show the node's message in the playground (also "Show in thread" in the detail panel).
  const jump = useJumpToMessage();
  const node = view?.node;
  const status = view?.status ?? 'pending';
  const live = status === 'running' || status === 'pending';
  const isLlm = p.kind === 'llm' || p.kind === 'sampling';
  const duration = node?.endedAt !== undefined ? node.endedAt - node.startedAt : node?.timing?.durationMs;
  const usage = node?.usage;
  const logs = node?.attrs?.logs as { data: unknown }[] | undefined;
  const lastLog = p.kind === 'tool' && logs?.length ? logText(logs[logs.length - 1].data) : undefined;
  const progress = node?.attrs?.progress as { progress?: number; total?: number; message?: string } | undefined;
  // A tool row shows its arguments; a model row shows every tool call it makes, growing as
  // the arguments stream, then with names once the call has ended.
  const finalCalls = isLlm ? (node?.output as { toolCalls?: { name: string; arguments: unknown }[] } | undefined)?.toolCalls : undefined;
  const argLines: string[] =
    p.kind === 'tool'
      ? node?.input !== undefined
        ? [JSON.stringify(node.input)]
        : []
      : finalCalls
        ? finalCalls.map((c) => `${c.name} ${JSON.stringify(c.arguments)}`)
        : Object.values(view?.toolArgs ?? {});
  const out = p.kind === 'tool' ? resultText(node?.output) : '';
  const llmCalls = isLlm ? Object.keys(view?.toolArgs ?? {}).length : 0;
  return (
    <Box
      role="treeitem"
      aria-label={rowName(p.kind, p.name, view)}
      aria-level={p.level}
      aria-posinset={p.posinset}
      aria-setsize={p.setsize}
      aria-expanded={p.hasChildren ? p.expanded : undefined}
      aria-selected={p.selected}
      tabIndex={p.selected ? 0 : -1}
      data-node-id={p.nodeId}
      data-status={status}
      onClick={() => p.onSelect(p.nodeId)}
      onDoubleClick={() => void jump(p.runId, p.nodeId)}
      onKeyDown={(e) => p.onKey(e, p.nodeId)}
      pl={(p.level - 1) * 14 + 4}
      pr={6}
      py={3}
      style={{
        cursor: 'pointer',
        borderLeft: `3px solid var(--mantine-color-${statusColor(status)}-5)`,
        background: p.selected ? 'var(--mantine-color-default-hover)' : undefined,
        outlineOffset: -2,
      }}
    >
      <Group gap={6} wrap="nowrap">
        <Text size="xs" w={12} c="dimmed" onClick={(e) => { e.stopPropagation(); if (p.hasChildren) p.onToggle(p.nodeId); }} aria-hidden>
          {p.hasChildren ? (p.expanded ? '▾' : '▸') : ''}
        </Text>
        <Text size="xs" c="dimmed" w={52}>{p.kind}</Text>
        <Text size="sm" ff="monospace" fw={500} truncate style={{ flex: 1, minWidth: 0 }}>{p.name}</Text>
        {usage && <Text size="xs" c="dimmed" title="input → output tokens">{usage.inputTokens}→{usage.outputTokens}</Text>}
        {duration !== undefined && <Text size="xs" c="dimmed">{formatMs(duration)}</Text>}
        <StatusBadge status={status} syncing={view?.syncing} />
      </Group>
      <Box pl={18}>
        {isLlm && view?.thinking && (
          <Box>
            <Anchor component="button" type="button" size="xs" c="dimmed" aria-expanded={thinkingOpen} onClick={(e: React.MouseEvent) => { e.stopPropagation(); setThinkingOpen((o) => !o); }}
              style={{ textAlign: 'left', fontStyle: 'italic' }}>
              {thinkingOpen ? '▾ thinking' : `▸ thinking: ${truncate(foldedThinking(view.thinking, live), 160)}`}
            </Anchor>
            {thinkingOpen && <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>{truncate(view.thinking, 4000, live)}</Text>}
          </Box>
        )}
        {isLlm && view?.text && <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{truncate(view.text, 1200, live)}</Text>}
        {isLlm && llmCalls > 0 && !view?.text && live && <Text size="xs" c="dimmed">writing {llmCalls} tool call{llmCalls > 1 ? 's' : ''}…</Text>}
        {argLines.map((line, i) => (
          <Text key={i} size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>{truncate(line, 300, live)}</Text>
        ))}
        {progress && (
          <Group gap={6} wrap="nowrap">
            <Progress value={progress.total ? (100 * (progress.progress ?? 0)) / progress.total : 100} animated={!progress.total} size="sm" style={{ flex: 1 }}
              aria-label={`progress ${progress.progress ?? 0}${progress.total ? ` of ${progress.total}` : ''}`} />
            <Text size="xs" c="dimmed">{progress.progress ?? 0}{progress.total ? `/${progress.total}` : ''} {progress.message ?? ''}</Text>
          </Group>
        )}
        {live && lastLog && <Text size="xs" c="dimmed" aria-label="latest log line">{truncate(lastLog, 300)}</Text>}
        {out && <Text size="xs" ff="monospace" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} c={(node?.output as { isError?: boolean })?.isError ? 'red' : undefined}>→ {truncate(out, 400)}</Text>}
        {node?.error && <Text size="xs" c="red">{node.error.message}</Text>}
        {status === 'awaiting_input' && (node?.attrs?.inputRequest as ElicitationRequest | undefined)?.kind === 'elicitation' && (
          <ElicitationForm runId={p.runId} nodeId={p.nodeId} request={node!.attrs!.inputRequest as ElicitationRequest} />
        )}
        {status === 'awaiting_input' && (node?.attrs?.inputRequest as SamplingRequest | undefined)?.kind === 'sampling' && (
          <SamplingReview runId={p.runId} nodeId={p.nodeId} request={node!.attrs!.inputRequest as SamplingRequest} />
        )}
      </Box>
    </Box>
  );
});
