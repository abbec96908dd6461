/** "Add to dataset" of a run in Run history: pick a dataset; `eval.addRunAsCase` adds the run as a case (its final text expected). */
import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Select, Text } from '@mantine/core';
import { useApp } from '../../state/context';
import type { DatasetInfo } from './types';
import { errorText } from './errors';

export function AddRunAsCase({ threadId, runId, onClose }: { threadId: string; runId: string | null; onClose(): void }) {
  const app = useApp();
  const [datasets, setDatasets] = useState<DatasetInfo[] | null>(null);
  const [path, setPath] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    if (!runId) return;
    setError(null);
    setDone(null);
    app.host.call('eval.datasets', {}).then(
      (d) => {
        const ok = d.filter((x) => !x.error);
        setDatasets(ok);
        setPath((p) => p ?? ok[0]?.path ?? null);
      },
      (err) => setError(errorText(err)),
    );
  }, [app, runId]);
  if (!runId) return null;
  const add = async () => {
    if (!path) return;
    try {
      const d = await app.host.call('eval.addRunAsCase', { path, threadId, runId });
      setDone(`Added as case ${d.cases.at(-1)?.id ?? ''} of ${d.name} (${d.cases.length} cases).`);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Modal opened onClose={onClose} title="Add this run as a case" centered>
      <Text size="sm" mb="xs">The thread’s variable values become the case’s; the run’s final text becomes its expected value.</Text>
      {datasets?.length === 0 && <Text size="sm" c="dimmed">No datasets yet — create one in Evaluate first.</Text>}
      {!!datasets?.length && <Select label="Dataset" allowDeselect={false} value={path} onChange={setPath} data={datasets.map((d) => ({ value: d.path, label: `${d.name} (${d.cases} cases)` }))} />}
      {error && <Alert mt="xs" color="red" role="alert" title="The run was not added">{error}</Alert>}
      {done && <Text mt="xs" size="sm" c="green" role="status">{done}</Text>}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>{done ? 'Done' : 'Cancel'}</Button>
        {!done && <Button disabled={!path} onClick={() => void add()}>Add case</Button>}
      </Group>
    </Modal>
  );
}
