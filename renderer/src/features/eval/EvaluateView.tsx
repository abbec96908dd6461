/**
 * The Evaluate view (docs/architecture.md#evaluation): the workspace's datasets and batches on
 * the left; on the right the picked dataset's grid, a new dataset, the batch dialog or a
 * batch's results. Reached from the header's Evaluate button.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Badge, Box, Button, Group, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useApp } from '../../state/context';
import { NewDataset } from './NewDataset';
import { DatasetEditor } from './DatasetEditor';
import { RunBatch } from './RunBatch';
import { BatchView } from './BatchView';
import type { BatchInfo, DatasetInfo } from './types';


/**
 * A batch whose file cannot be used, in the batch list: its folder, the word "unreadable" and
 * why, with what to do; nothing to open or resume.
 */
function UnreadableBatch({ batch }: { batch: BatchInfo }) {
  return (
    <Box role="group" aria-label={`batch ${batch.name}, unreadable`} style={{ padding: '4px 6px' }}>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" truncate style={{ minWidth: 0 }}>{batch.name}</Text>
        <Badge size="xs" color="gray" variant="light" style={{ flexShrink: 0 }}>unreadable</Badge>
      </Group>
      <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>{batch.path}/{batch.error}</Text>
      <Text size="xs" c="dimmed">Fix the batch file, or remove its folder.</Text>
    </Box>
  );
}

/** An empty list: what it is missing, then the one next step (docs/ui.md#empty-states). */
function EmptyList({ title, hint }: { title: string; hint: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm">{title}</Text>
      <Text size="xs" c="dimmed">{hint}</Text>
    </Stack>
  );
}

/** What the right side shows. */
type Pane = { kind: 'none' } | { kind: 'new' } | { kind: 'dataset'; path: string } | { kind: 'run' } | { kind: 'batch'; id: string };

export function EvaluateView() {
  const app = useApp();
  const progress = useAtomValue(app.evalProgressAtom);
  const [datasets, setDatasets] = useState<DatasetInfo[] | null>(null);
  const [batches, setBatches] = useState<BatchInfo[]>([]);
  const [pane, setPane] = useState<Pane>({ kind: 'none' });
  const refresh = useCallback(async () => {
    try {
      const [d, b] = await Promise.all([app.host.call('eval.datasets', {}), app.host.call('eval.batches', {})]);
      setDatasets(d);
      setBatches(b);
    } catch (err) {
      setDatasets([]);
      app.fail('Could not list the datasets and batches', err, 'Check that the workspace folder is readable.');
    }
  }, [app]);
  useEffect(() => void refresh(), [refresh]);
  // Opened for the first time: the newest batch's results (the examples' batch in a new workspace),
  // not an empty pane.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || datasets === null) return;
    opened.current = true;
    const newest = batches.find((b) => !b.error);
    if (newest) setPane((p) => (p.kind === 'none' ? { kind: 'batch', id: newest.id } : p));
  }, [datasets, batches]);
  // A batch that ended (or a new one started elsewhere) changes the list.
  const ended = Object.values(progress).filter((p) => p.ended).length;
  useEffect(() => void refresh(), [ended, refresh]);
  const item = (selected: boolean) => ({ padding: '4px 6px', borderRadius: 4, background: selected ? 'var(--mantine-color-default-hover)' : undefined, width: '100%' });
  return (
    <Group h="100%" gap={0} wrap="nowrap" align="stretch">
      <Box w={280} style={{ borderRight: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}>
        <ScrollArea h="100%" p="xs">
          <Stack gap={4}>
            <Group justify="space-between">
              <Text fw={600} size="sm">Datasets</Text>
              <Button size="compact-xs" variant="light" onClick={() => setPane({ kind: 'new' })}>New dataset</Button>
            </Group>
            {datasets?.length === 0 && <EmptyList title="No datasets yet" hint="A dataset is a table of cases: variables, the expected answer, checks. Start one with New dataset." />}
            <nav aria-label="Datasets">
              {datasets?.map((d) => (
                <UnstyledButton key={d.path} style={item(pane.kind === 'dataset' && pane.path === d.path)} onClick={() => setPane({ kind: 'dataset', path: d.path })} aria-label={`dataset ${d.name}`}>
                  <Text size="sm">{d.name} <Text span size="xs" c="dimmed">· {d.cases} case{d.cases === 1 ? '' : 's'}</Text></Text>
                  {d.error && <Text size="xs" c="red">{d.error}</Text>}
                </UnstyledButton>
              ))}
            </nav>
            <Group justify="space-between" mt="md">
              <Text fw={600} size="sm">Batches</Text>
              <Button size="compact-xs" variant="light" onClick={() => setPane({ kind: 'run' })}>Run a batch</Button>
            </Group>
            {batches.length === 0 && <EmptyList title="No batches yet" hint="Open a thread, then Run a batch of it over a dataset." />}
            <nav aria-label="Batches">
              {batches.map((b) => {
                if (b.error) return <UnreadableBatch key={`unreadable ${b.path}`} batch={b} />;
                const p = progress[b.id]?.progress ?? b.progress;
                return (
                  <UnstyledButton key={b.id} style={item(pane.kind === 'batch' && pane.id === b.id)} onClick={() => setPane({ kind: 'batch', id: b.id })} aria-label={`batch ${b.name}`}>
                    <Text size="sm" truncate>{b.name}</Text>
                    <Group gap={4}>
                      <Text size="xs" c="dimmed">{b.datasetName} · {p.done}/{p.total} · <time dateTime={new Date(b.createdAt).toISOString()}>{new Date(b.createdAt).toLocaleString()}</time></Text>
                      {p.failed > 0 && <Badge size="xs" color="red" variant="light">{p.failed} failed</Badge>}
                    </Group>
                  </UnstyledButton>
                );
              })}
            </nav>
          </Stack>
        </ScrollArea>
      </Box>
      <ScrollArea style={{ flex: 1 }} p="sm">
        {pane.kind === 'none' && <Text size="sm" c="dimmed">Pick a dataset to edit it, or a batch to see its results.</Text>}
        {pane.kind === 'new' && (
          <NewDataset
            onCreated={(path) => {
              void refresh();
              setPane({ kind: 'dataset', path });
            }}
          />
        )}
        {pane.kind === 'dataset' && <DatasetEditor key={pane.path} path={pane.path} onSaved={() => void refresh()} />}
        {pane.kind === 'run' && (
          <RunBatch
            datasets={datasets ?? []}
            onStarted={(b) => {
              setBatches((all) => [b, ...all.filter((x) => x.id !== b.id)]);
              setPane({ kind: 'batch', id: b.id });
            }}
          />
        )}
        {pane.kind === 'batch' && <BatchView key={pane.id} batchId={pane.id} batches={batches} onResumed={() => void refresh()} />}
      </ScrollArea>
    </Group>
  );
}
