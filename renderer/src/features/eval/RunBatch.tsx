/**
 * Run a batch: the open thread over a dataset, once per variant (VariantsEditor), with a
 * concurrency limit; `eval.startBatch` answers the batch, whose progress comes as pushes.
 */
import { useState } from 'react';
import { Alert, Button, Group, List, NumberInput, Select, Stack, Text, Title } from '@mantine/core';
import { useApp } from '../../state/context';
import { useThread, useThreadMeta } from '../../state/hooks';
import type { BatchInfo, DatasetInfo } from './types';
import { emptyDraft, readVariants, type VariantDraft } from './variant-draft';
import { VariantsEditor } from './VariantsEditor';
import { errorText } from './errors';

export function RunBatch({ datasets, onStarted }: { datasets: DatasetInfo[]; onStarted(b: BatchInfo): void }) {
  const app = useApp();
  const meta = useThreadMeta();
  const thread = useThread();
  const usable = datasets.filter((d) => !d.error);
  const [datasetPath, setDatasetPath] = useState<string | null>(usable[0]?.path ?? null);
  const [drafts, setDrafts] = useState<VariantDraft[]>([emptyDraft('base')]);
  const [concurrency, setConcurrency] = useState<number>(2);
  const [errors, setErrors] = useState<string[]>([]);
  const [starting, setStarting] = useState(false);
  if (!meta || !thread) return <Text size="sm" c="dimmed">Open a thread first (leave Evaluate, pick it in the workspace): a batch runs the open thread over a dataset.</Text>;
  const start = async () => {
    const r = readVariants(drafts);
    const problems = r.ok ? [] : [...r.errors];
    if (!datasetPath) problems.unshift('Pick a dataset.');
    if (problems.length || !r.ok) return setErrors(problems);
    setStarting(true);
    try {
      const b = await app.host.call('eval.startBatch', { threadPath: meta.path, datasetPath: datasetPath!, variants: r.variants, concurrency });
      setErrors([]);
      onStarted(b);
    } catch (err) {
      setErrors([errorText(err)]);
    } finally {
      setStarting(false);
    }
  };
  return (
    <Stack gap="sm" maw={900}>
      <Title order={4}>Run a batch</Title>
      <Text size="sm">Thread: <Text span fw={600}>{thread.title}</Text> <Text span size="xs" c="dimmed">({meta.path})</Text></Text>
      <Group gap="sm" align="flex-end">
        <Select label="Dataset" w={300} allowDeselect={false} value={datasetPath} onChange={setDatasetPath} data={usable.map((d) => ({ value: d.path, label: `${d.name} (${d.cases} cases)` }))} placeholder={usable.length ? undefined : 'No datasets yet'} />
        <NumberInput label="Concurrency" w={120} min={1} max={32} allowDecimal={false} value={concurrency} onChange={(v) => typeof v === 'number' && setConcurrency(v)} />
      </Group>
      <VariantsEditor drafts={drafts} scenarios={(thread.context.scenarios ?? []).map((s) => s.name)} onChange={setDrafts} />
      {errors.length > 0 && (
        <Alert color="red" title="The batch did not start" role="alert">
          <List size="sm">{errors.map((e, i) => <List.Item key={i}>{e}</List.Item>)}</List>
        </Alert>
      )}
      <Group><Button loading={starting} onClick={() => void start()}>Start batch</Button></Group>
    </Stack>
  );
}
