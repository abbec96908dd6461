/**
 * Detail of the selected node: input/prompt, reply, thinking, tool arguments and result (with
 * a tool's log, structured content and MCP protocol log), raw request and recorded stream
 * (from the run record), usage, timing, and the error with its raw details behind a disclosure.
 */
import { useEffect, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Accordion, Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import type { ProviderInfo, RunRecord } from '../../../../shared/protocol/host-api';
import { costOf } from './cost';
import { useApp } from '../../state/context';
import { StatusBadge } from '../../ui/status';
import { JsonEditor } from '../../ui/editors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { formatMs, toJson } from '../../ui/format';
import { nodeDurationMs } from '../../../../shared/protocol/duration';
import { ImagePreview } from '../playground/images';
import { toolSections } from './tool-sections';
import { useThread } from '../../state/hooks';
import { jumpTo, messageJumpAtom } from '../../state/message-jump';
import { messageForNode } from '../execution/node-message';
import { addedMessageIds, runNodes } from '../execution/use-jump-to-message';
import { ResourceView, type ResourceContentsLike } from '../mcp/ResourceView';
import { shortRunId } from '../runs/compare';
import { runStopOf, stopNote } from '../../../../shared/protocol/stop-reason';
import { RunNodeActions } from './RunNodeActions';
import { formatCost } from '../../../../shared/protocol/usage';
import { RequestReader } from '../../../../shared/protocol/request-delta';
import type { RunStructure } from '../../state/run-structure';

/** The offline models (`scripted/…`, `replay/…`) cost nothing: no cost line for them. */
function isOffline(model: string | undefined): boolean {
  return !!model && /^(scripted|replay)\//.test(model);
}

/**
 * Detail of `app.selectedAtom`; with no row selected, of the shown run's latest model call
 * (docs/ui.md#empty-states): a run just made shows its prompt, reply and request at once.
 */
export function DetailPanel() {
  const app = useApp();
  const sel = useAtomValue(app.selectedAtom);
  const shown = useAtomValue(app.shownRunAtom);
  const tree = useAtomValue(app.stream.runTreeAtom(shown ?? ''));
  if (sel) return <NodeDetail key={sel.nodeId} runId={sel.runId} nodeId={sel.nodeId} />;
  const latest = shown && tree ? latestModelCall(tree.structure) : undefined;
  if (!shown || !latest) return <Text size="sm" c="dimmed" p="xs">Run the thread: the detail of its model calls and tool calls shows here. Select any row of the execution tree to see its prompt, reply, raw request and timing.</Text>;
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" px="xs" pt={6}>The run's latest model call — select a row of the execution tree to see another.</Text>
      <NodeDetail key={latest} runId={shown} nodeId={latest} />
    </Stack>
  );
}

/** The id of the run's last model call (`llm` node) to arrive; its root when it has none. */
export function latestModelCall(s: Pick<RunStructure, 'order' | 'meta' | 'roots'>): string | undefined {
  for (let i = s.order.length - 1; i >= 0; i--) if (s.meta(s.order[i])?.kind === 'llm') return s.order[i];
  return s.roots[0];
}

/** The selected step belongs to a run the execution tree no longer shows: say so, and offer to open that run. */
function EarlierRun({ runId }: { runId: string }) {
  const app = useApp();
  const id = shortRunId(runId);
  return (
    <Stack gap={6} p="xs" align="flex-start">
      <Text size="sm">This step is from an earlier run ({id}). A newer run replaced it in the execution tree.</Text>
      <Button size="xs" variant="light" onClick={() => void app.openRecord(runId)}>Open run {id}</Button>
    </Stack>
  );
}

function NodeDetail({ runId, nodeId }: { runId: string; nodeId: string }) {
  const app = useApp();
  const view = useAtomValue(app.stream.nodeAtom(nodeId));
  const [record, setRecord] = useState<RunRecord | undefined>();
  const [providers, setProviders] = useState<ProviderInfo[]>([]);
  useEffect(() => {
    let live = true;
    app.host.call('settings.providers', {}).then((p) => live && setProviders(p), () => {});
    return () => { live = false; };
  }, [app]);
  const status = view?.status ?? 'pending';
  const finished = status !== 'running' && status !== 'pending';
  // Read again when the run ends: a node can finish while its run still runs (shown by default).
  const runStatus = useAtomValue(app.stream.runsAtom).find((r) => r.runId === runId)?.status;
  useEffect(() => {
    if (!finished) return;
    let live = true;
    void app.record(runId).then((r) => live && setRecord(r));
    return () => { live = false; };
  }, [app, runId, finished, runStatus]);
  // The message of the open thread this node stands for ("Show in thread").
  const thread = useThread();
  const node = view?.node;
  const target = useMemo(
    () => (thread && node ? messageForNode(thread.context.messages, nodeId, runNodes(app, runId, record), addedMessageIds(record)) : undefined),
    [app, thread, node, nodeId, runId, record],
  );
  // The node's model call record, its request whole (a run stores each as what it adds to the previous).
  const llm = useMemo(() => {
    const records = Array.isArray(record?.records) ? record.records : [];
    const i = records.findIndex((r) => r.nodeId === nodeId);
    return i < 0 ? undefined : { api: records[i].api, events: records[i].events, request: new RequestReader(records).at(i) };
  }, [record, nodeId]);
  if (!view) return <EarlierRun runId={runId} />;
  const n = view.node;
  const duration = n ? (nodeDurationMs(n) ?? n.timing?.durationMs) : undefined;
  const first = n?.timing?.firstTokenMs;
  const outTok = n?.usage?.outputTokens;
  const genMs = duration !== undefined ? duration - (first ?? 0) : undefined;
  const tps = outTok && genMs && genMs > 0 ? (outTok / (genMs / 1000)).toFixed(1) : undefined;
  // The cost the runner computed (a run node's is the sum of its calls), else the configured prices.
  const cost = n?.usage?.costUsd ?? costOf(n?.model, n?.usage, providers);
  const stop = n?.kind === 'run' ? runStopOf(n.attrs) : undefined;
  const out = n?.output as { content?: { type: string; text?: string; mimeType?: string; data?: string; resource?: ResourceContentsLike }[] } | undefined;
  const sections: { value: string; label: string; body: React.ReactNode }[] = [];
  if (n?.input !== undefined) sections.push({ value: 'input', label: n.kind === 'tool' ? 'Arguments' : 'Input / prompt', body: <JsonEditor label="Node input" value={toJson(n.input)} readOnly maxHeight={300} /> });
  if (view.text) sections.push({ value: 'reply', label: 'Reply', body: <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{view.text}</Text> });
  if (view.thinking) sections.push({ value: 'thinking', label: 'Thinking', body: <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>{view.thinking}</Text> });
  const serverTools = (n?.output as { serverTools?: unknown[] } | undefined)?.serverTools;
  if (serverTools?.length) sections.push({ value: 'server-tools', label: `Run by the provider (${serverTools.length} blocks)`, body: <JsonEditor label="Provider-run tool blocks" value={toJson(serverTools)} readOnly maxHeight={300} /> });
  if (Object.keys(view.toolArgs).length && n?.kind !== 'tool') sections.push({ value: 'calls', label: 'Tool calls (streamed arguments)', body: <JsonEditor label="Streamed tool arguments" value={toJson(Object.values(view.args))} readOnly maxHeight={240} /> });
  if (out?.content) sections.push({ value: 'result', label: 'Result', body: (
    <Stack gap={4}>
      {out.content.map((p, i) => p.type === 'image' && p.data ? <ImagePreview key={i} part={{ mimeType: p.mimeType ?? 'image/png', data: p.data }} />
        : p.type === 'resource' && p.resource ? <ResourceView key={i} resource={p.resource} />
        : <Text key={i} size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap' }}>{p.type === 'text' ? p.text : toJson(p)}</Text>)}
    </Stack>
  ) });
  if (n?.kind === 'tool') sections.push(...toolSections(n.attrs, n.output, n.startedAt));
  if (llm) {
    sections.push({ value: 'request', label: `Raw request (${llm.api})`, body: <JsonEditor label="Raw provider request" value={toJson(llm.request)} readOnly maxHeight={400} /> });
    sections.push({ value: 'stream', label: `Recorded stream (${llm.events.length} events)`, body: <JsonEditor label="Recorded stream" value={toJson(llm.events)} readOnly maxHeight={400} /> });
  }
  return (
    <Stack gap="xs" p="xs">
      <Group gap={6}>
        <Text fw={600} size="sm">{n?.kind} <Text span ff="monospace">{n?.name ?? nodeId}</Text></Text>
        <StatusBadge status={status} syncing={view.syncing} />
        {n?.model && <Text size="xs" c="dimmed">{n.model}</Text>}
        {target && (
          <Button size="compact-xs" variant="light" ml="auto" title="Scroll the playground to the message this node stands for"
            onClick={() => app.store.set(messageJumpAtom, jumpTo(target))}>Show in thread</Button>
        )}
      </Group>
      {typeof n?.attrs?.replayedFrom === 'string' && <Text size="xs" c="dimmed">Played back from run {shortRunId(n.attrs.replayedFrom)}: its recorded {n.kind === 'tool' ? 'result' : 'output'}, no {n.kind === 'tool' ? 'tool' : 'provider'} contacted.</Text>}
      {finished && record && <RunNodeActions record={record} nodeId={nodeId} />}
      {stop && <Alert color="orange" variant="light" p="xs" title="Stopped at the turn cap"><Text size="xs">{stopNote(stop.turns)}</Text></Alert>}
      {n?.error && <ErrorNotice title={`${n.kind} ${n.name} failed`} message={n.error.message} hint={n.kind === 'llm' ? 'Check the provider key and model id in Settings, then Run again.' : 'Edit the arguments or type a result, then Continue.'} details={[n.error.code && `code: ${n.error.code}`, n.error.details].filter(Boolean).join('\n') || undefined} />}
      <Table withRowBorders={false} verticalSpacing={2} fz="xs">
        <Table.Tbody>
          <Table.Tr><Table.Td c="dimmed">duration</Table.Td><Table.Td>{formatMs(duration)}</Table.Td><Table.Td c="dimmed">first token</Table.Td><Table.Td>{formatMs(first)}</Table.Td></Table.Tr>
          <Table.Tr><Table.Td c="dimmed">tokens in / out</Table.Td><Table.Td>{n?.usage ? `${n.usage.inputTokens} / ${n.usage.outputTokens}` : '—'}</Table.Td><Table.Td c="dimmed">tokens/s</Table.Td><Table.Td>{tps ?? '—'}</Table.Td></Table.Tr>
          {n?.usage && (n.kind === 'run' || !isOffline(n.model)) && (
            <Table.Tr>
              <Table.Td c="dimmed">cost</Table.Td>
              <Table.Td colSpan={3}>{cost === undefined ? <Text span size="xs" c="dimmed">— ({n.kind === 'run' ? 'a model of this run has no known price' : "add this model's prices to its provider in providers.json"})</Text> : formatCost(cost)}</Table.Td>
            </Table.Tr>
          )}
          {(n?.usage?.cacheReadTokens || n?.usage?.reasoningTokens) ? <Table.Tr><Table.Td c="dimmed">cache read</Table.Td><Table.Td>{n?.usage?.cacheReadTokens ?? 0}</Table.Td><Table.Td c="dimmed">reasoning</Table.Td><Table.Td>{n?.usage?.reasoningTokens ?? 0}</Table.Td></Table.Tr> : null}
        </Table.Tbody>
      </Table>
      <Accordion multiple defaultValue={['input', 'reply', 'result', 'log', 'view', 'preview']} variant="contained" chevronPosition="left">
        {sections.map((s) => (
          <Accordion.Item key={s.value} value={s.value}>
            <Accordion.Control><Text size="xs" fw={600}>{s.label}</Text></Accordion.Control>
            <Accordion.Panel>{s.body}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      {finished && !llm && (n?.kind === 'llm' || n?.kind === 'sampling') && <Text size="xs" c="dimmed">No raw request recorded for this call.</Text>}
    </Stack>
  );
}
