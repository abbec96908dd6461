/**
 * One dataset, edited: the case grid (DatasetGrid), the dataset's assertions (AssertionsEditor),
 * Save (`eval.saveDataset`; the host's refusal is shown) and export as JSONL or CSV.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import type { Dataset } from '../../../../shared/eval/dataset';
import { checkDataset, toCsv, toJsonl } from '../../../../shared/eval/dataset-io';
import { useApp } from '../../state/context';
import { DatasetGrid } from './DatasetGrid';
import { AssertionsEditor } from './AssertionsEditor';
import { gridProblems } from './grid';
import { download } from './download';
import { errorText } from './errors';

export function DatasetEditor({ path, onSaved }: { path: string; onSaved(): void }) {
  const app = useApp();
  const [dataset, setDataset] = useState<Dataset | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    app.host.call('eval.readDataset', { path }).then(setDataset, (err) => setLoadError(errorText(err)));
  }, [app, path]);
  if (loadError) return <Alert color="red" title={`Could not read ${path}`} role="alert">{loadError}</Alert>;
  if (!dataset) return <Text size="sm" c="dimmed">Loading {path}…</Text>;
  const change = (d: Dataset) => {
    setDataset(d);
    setDirty(true);
    setSaved(false);
  };
  const save = async () => {
    const problems = gridProblems(dataset);
    const checked = checkDataset(dataset);
    const all = [...problems, ...(checked.ok ? [] : checked.errors)];
    if (all.length) return setErrors(all);
    try {
      await app.host.call('eval.saveDataset', { path, dataset });
      setErrors([]);
      setDirty(false);
      setSaved(true);
      onSaved();
    } catch (err) {
      setErrors([errorText(err)]);
    }
  };
  const base = dataset.name.replace(/[^\w.-]+/g, '-');
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4}>{dataset.name} <Text span size="xs" c="dimmed">{path}</Text></Title>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => download(`${base}.jsonl`, toJsonl(dataset), 'application/jsonl')}>Export JSONL</Button>
          <Button size="xs" variant="default" onClick={() => download(`${base}.csv`, toCsv(dataset), 'text/csv')}>Export CSV</Button>
          <Button size="xs" disabled={!dirty} onClick={() => void save()}>Save dataset</Button>
        </Group>
      </Group>
      {saved && <Text size="xs" c="green" role="status">Saved.</Text>}
      {errors.length > 0 && (
        <Alert color="red" title="The dataset was not saved" role="alert">
          <List size="sm">{errors.map((e, i) => <List.Item key={i}>{e}</List.Item>)}</List>
        </Alert>
      )}
      <DatasetGrid dataset={dataset} onChange={change} />
      <AssertionsEditor assertions={dataset.assertions} onChange={(assertions) => change({ ...dataset, assertions })} />
    </Stack>
  );
}
