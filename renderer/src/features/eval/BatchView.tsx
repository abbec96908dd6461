/**
 * One batch: its progress (done, running, failed, time left) from `eval_progress` pushes, with
 * Cancel while it runs and Resume when it stopped short; its results grid; and a comparison
 * with another batch of the same dataset.
 */
import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Alert, Button, Group, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { useApp } from '../../state/context';
import { formatMs } from '../../ui/format';
import type { BatchInfo, CaseResultWire } from './types';
import { ResultsGrid } from './ResultsGrid';
import { CompareBatches } from './CompareBatches';
import { errorText } from './errors';


export function BatchView({ batchId, batches, onResumed }: { batchId: string; batches: BatchInfo[]; onResumed(): void }) {
  const app = useApp();
  const push = useAtomValue(app.evalProgressAtom)[batchId];
  const [data, setData] = useState<{ info: BatchInfo; results: CaseResultWire[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tags, setTags] = useState<Record<string, string[]>>({});
  const [other, setOther] = useState<string | null>(null);
  // Every push of this batch (a case finished, the batch ended) reloads it.
  useEffect(() => {
    app.host.call('eval.batch', { batchId }).then(setData, (err) => setError(errorText(err)));
  }, [app, batchId, push]);
  const datasetName = data?.info.datasetName;
  useEffect(() => {
    if (!datasetName) return;
    // Tags live in the dataset, not in the results: read it when it is still in the workspace.
    void (async () => {
      const info = (await app.host.call('eval.datasets', {}).catch(() => [])).find((d) => d.name === datasetName && !d.error);
      if (!info) return;
      const d = await app.host.call('eval.readDataset', { path: info.path }).catch(() => null);
      if (d) setTags(Object.fromEntries(d.cases.map((c) => [c.id, c.tags ?? []])));
    })();
  }, [app, datasetName]);
  if (error) return <Alert color="red" title="Could not read the batch" role="alert">{error}</Alert>;
  if (!data) return <Text size="sm" c="dimmed">Loading the batch…</Text>;
  const { info, results } = data;
  const p = push?.progress ?? info.progress;
  const live = push ? !push.ended : info.live;
  const act = async (what: 'cancel' | 'resume') => {
    try {
      if (what === 'cancel') await app.host.call('eval.cancelBatch', { batchId });
      else {
        const b = await app.host.call('eval.resumeBatch', { batchId });
        setData({ info: b, results });
        app.store.set(app.evalProgressAtom, { ...app.store.get(app.evalProgressAtom), [batchId]: { type: 'eval_progress', batchId, progress: b.progress } });
        onResumed();
      }
    } catch (err) {
      setError(errorText(err));
    }
  };
  const openCase = async (r: CaseResultWire) => {
    if (!r.threadFile) return;
    app.store.set(app.evalOpenAtom, false);
    await app.openThread(r.threadFile);
    if (r.runId) await app.openRecord(r.runId);
  };
  const others = batches.filter((b) => !b.error && b.id !== batchId && b.datasetName === info.datasetName);
  const otherData = others.find((b) => b.id === other);
  return (
    <Stack gap="sm">
      <Title order={4}>{info.name} <Text span size="xs" c="dimmed">{info.threadTitle} × {info.datasetName} · {info.path}</Text></Title>
      <Stack gap={2}>
        <Progress value={p.total ? (100 * p.done) / p.total : 0} color={p.failed ? 'red' : 'blue'} aria-label="Batch progress" />
        <Group gap="sm">
          <Text size="xs" role="status" aria-label="Batch progress counts">
            {p.done} of {p.total} done · {p.running} running · {p.failed} failed{live && p.etaMs !== undefined ? ` · about ${formatMs(p.etaMs)} left` : ''}{!live && p.done < p.total ? ' · interrupted' : ''}
          </Text>
          {live && <Button size="compact-xs" color="red" variant="light" onClick={() => void act('cancel')}>Cancel batch</Button>}
          {!live && p.done < p.total && <Button size="compact-xs" variant="light" onClick={() => void act('resume')}>Resume batch</Button>}
        </Group>
        {info.skippedLines && (
          <Text size="xs" c="orange" role="note">
            {info.skippedLines === 1 ? '1 line' : `${info.skippedLines} lines`} of {info.path}/results.jsonl could not be read: those cases count as not done{p.done < p.total ? ', and Resume batch runs them again' : ''}.
          </Text>
        )}
      </Stack>
      <ResultsGrid results={results} variants={info.variants} tagsOf={(id) => tags[id] ?? []} onOpen={(r) => void openCase(r)} />
      {others.length > 0 && (
        <Stack gap={4}>
          <Select size="xs" w={360} label="Compare with an earlier batch" clearable value={other} onChange={setOther} data={others.map((b) => ({ value: b.id, label: `${b.name} (${new Date(b.createdAt).toLocaleString()})` }))} />
          {otherData && <CompareBatches before={otherData} after={info} afterResults={results} />}
        </Stack>
      )}
    </Stack>
  );
}
