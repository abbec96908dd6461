/**
 * One execution-tree row. Subscribes to its own node atom only, so a delta for another node
 * never re-renders it. Streaming text grows in place; thinking is folded. Plain elements
 * styled by node-row.css (mounting rows is what scrolling and folding a big tree costs).
 */
import { memo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Group, Progress, Text } from '@mantine/core';
import type { NodeKind } from '../../../../shared/protocol/nodes';
import { nodeDurationMs } from '../../../../shared/protocol/duration';
import { useApp } from '../../state/context';
import type { NodeView } from '../../state/stream-store';
import { StatusBadge, statusWord, statusColor } from '../../ui/status';
import { foldedThinking, formatMs, truncate } from '../../ui/format';
import { serverToolLine } from '../../../../shared/thread/server-tools';
import { formatCost, usageLine } from '../../../../shared/protocol/usage';
import { ElicitationForm, type ElicitationRequest } from './ElicitationForm';
import { SamplingReview, type SamplingRequest } from './SamplingReview';
import { QuestionForm } from './QuestionForm';
import { logText } from '../detail/tool-sections';
import { useJumpToMessage } from './use-jump-to-message';
import { ApprovalPreviewView, ToolResultBody } from '../../ui/ToolResults';
import { questionsOf, toolResultView } from '../../../../shared/tools/builtin-results';
import './node-row.css';

/** What a row can ask of its tree; one stable object per tree, so memoised rows skip re-rendering. */
export interface RowActions {
  onToggle(id: string): void;
  onSelect(id: string): void;
  onKey(e: React.KeyboardEvent, id: string): void;
}

/** A row's props: primitives plus stable callbacks (a row re-renders only when one of them changes). */
export interface RowProps {
  nodeId: string;
  runId: string;
  kind: NodeKind;
  name: string;
  /** aria-level: 1 for the run node. */
  level: number;
  /** Position among its siblings (1-based) and their count. */
  posinset: number;
  setsize: number;
  hasChildren: boolean;
  expanded: boolean;
  selected: boolean;
  /** The tree's one tab stop (roving tabindex): the selected row, else the first. */
  tabbable: boolean;
  actions: RowActions;
  /** "Jump to message" for this node; rows will offer it only when given (not built yet). */
  onOpenMessage?: (nodeId: string) => void;
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
  const duration = node ? (nodeDurationMs(node) ?? node.timing?.durationMs) : undefined;
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
  const structured = p.kind === 'tool' ? (node?.output as { structuredContent?: unknown } | undefined)?.structuredContent : undefined;
  // A built-in tool's result (diff, terminal, todo list) is drawn as such instead of its text.
  const drawn = structured !== undefined && toolResultView(structured) !== null;
  const out = p.kind === 'tool' && !drawn ? resultText(node?.output) : '';
  const questions = status === 'awaiting_input' ? questionsOf(node?.attrs?.inputRequest) ?? questionsOf(node?.input) : null;
  // Tool activity the provider ran itself (web search, code execution, MCP connector): shown, never run here.
  const serverTools = isLlm ? ((node?.output as { serverTools?: ({ type: string } & Record<string, unknown>)[] } | undefined)?.serverTools ?? []) : [];
  const llmCalls = isLlm ? Object.keys(view?.toolArgs ?? {}).length : 0;
  const error = (node?.output as { isError?: boolean } | undefined)?.isError;
  return (
    <div
      role="treeitem"
      className="sw-row"
      aria-label={rowName(p.kind, p.name, view)}
      aria-level={p.level}
      aria-posinset={p.posinset}
      aria-setsize={p.setsize}
      aria-expanded={p.hasChildren ? p.expanded : undefined}
      aria-selected={p.selected}
      tabIndex={p.tabbable ? 0 : -1}
      data-node-id={p.nodeId}
      data-status={status}
      onClick={() => p.actions.onSelect(p.nodeId)}
      onDoubleClick={() => void jump(p.runId, p.nodeId)}
      onKeyDown={(e) => p.actions.onKey(e, p.nodeId)}
      style={{ paddingLeft: (p.level - 1) * 14 + 4, borderLeftColor: `var(--mantine-color-${statusColor(status)}-5)` }}
    >
      <div className="sw-row-head">
        <span className="sw-row-chevron sw-row-xs sw-row-dim" data-toggle onClick={(e) => { e.stopPropagation(); if (p.hasChildren) p.actions.onToggle(p.nodeId); }} aria-hidden>
          {p.hasChildren ? (p.expanded ? '▾' : '▸') : ''}
        </span>
        <span className="sw-row-kind sw-row-xs sw-row-dim">{p.kind}</span>
        <span className="sw-row-name sw-row-mono">{p.name}</span>
        {usage && <span className="sw-row-xs sw-row-dim" title={`input → output tokens: ${usageLine(usage)}`}>{usage.inputTokens}→{usage.outputTokens}{usage.costUsd !== undefined ? ` ${formatCost(usage.costUsd)}` : ''}</span>}
        {duration !== undefined && <span className="sw-row-xs sw-row-dim" data-duration title="duration">{formatMs(duration)}</span>}
        <StatusBadge status={status} syncing={view?.syncing} />
      </div>
      <div className="sw-row-body">
        {isLlm && view?.thinking && (
          <div>
            <button type="button" className="sw-row-thinking" aria-expanded={thinkingOpen} onClick={(e) => { e.stopPropagation(); setThinkingOpen((o) => !o); }}>
              {thinkingOpen ? '▾ thinking' : `▸ thinking: ${truncate(foldedThinking(view.thinking, live), 160)}`}
            </button>
            {thinkingOpen && <div className="sw-row-xs sw-row-dim sw-row-pre">{truncate(view.thinking, 4000, live)}</div>}
          </div>
        )}
        {isLlm && view?.text && <div className="sw-row-pre">{truncate(view.text, 1200, live)}</div>}
        {isLlm && llmCalls > 0 && !view?.text && live && <div className="sw-row-xs sw-row-dim">writing {llmCalls} tool call{llmCalls > 1 ? 's' : ''}…</div>}
        {serverTools.map((b, i) => (
          <div key={`s${i}`} className="sw-row-xs sw-row-dim sw-row-mono sw-row-args" title="run by the provider">⚙ {serverToolLine(b)}</div>
        ))}
        {argLines.map((line, i) => (
          <div key={i} className="sw-row-xs sw-row-dim sw-row-mono sw-row-args">{truncate(line, 300, live)}</div>
        ))}
        {progress && (
          <Group gap={6} wrap="nowrap">
            <Progress value={progress.total ? (100 * (progress.progress ?? 0)) / progress.total : 100} animated={!progress.total} size="sm" style={{ flex: 1 }}
              aria-label={`progress ${progress.progress ?? 0}${progress.total ? ` of ${progress.total}` : ''}`} />
            <Text size="xs" c="dimmed">{progress.progress ?? 0}{progress.total ? `/${progress.total}` : ''} {progress.message ?? ''}</Text>
          </Group>
        )}
        {live && lastLog && <div className="sw-row-xs sw-row-dim" aria-label="latest log line">{truncate(lastLog, 300)}</div>}
        {out && <div className={`sw-row-xs sw-row-mono sw-row-pre${error ? ' sw-row-error' : ''}`}>→ {truncate(out, 400)}</div>}
        {drawn && <ToolResultBody structured={structured} compact />}
        {node?.error && <div className="sw-row-xs sw-row-error">{node.error.message}</div>}
        {status === 'awaiting_input' && node?.attrs?.preview !== undefined && <ApprovalPreviewView preview={node.attrs.preview} />}
        {questions && <QuestionForm runId={p.runId} nodeId={p.nodeId} questions={questions} />}
        {status === 'awaiting_input' && (node?.attrs?.inputRequest as ElicitationRequest | undefined)?.kind === 'elicitation' && (
          <ElicitationForm runId={p.runId} nodeId={p.nodeId} request={node!.attrs!.inputRequest as ElicitationRequest} />
        )}
        {status === 'awaiting_input' && (node?.attrs?.inputRequest as SamplingRequest | undefined)?.kind === 'sampling' && (
          <SamplingReview runId={p.runId} nodeId={p.nodeId} request={node!.attrs!.inputRequest as SamplingRequest} />
        )}
      </div>
    </div>
  );
});
