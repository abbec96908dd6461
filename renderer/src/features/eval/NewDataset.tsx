/**
 * A new dataset: empty, one case per scenario of the open thread, or imported from JSONL or
 * CSV (a file or pasted text, parsed here with shared/eval/dataset-io.ts; its errors listed).
 * Saved with `eval.saveDataset` to `datasets/<name>.dataset.json`.
 */
import { useState } from 'react';
import { Alert, Button, FileButton, Group, List, SegmentedControl, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { emptyDataset, type Dataset } from '../../../../shared/eval/dataset';
import { parseCsv, parseJsonl, type DatasetRead } from '../../../../shared/eval/dataset-io';
import { useApp } from '../../state/context';
import { useThread } from '../../state/hooks';
import { casesFromScenarios } from './grid';
import { errorText } from './errors';

type Source = 'scratch' | 'scenarios' | 'import';

/** Parses imported text: CSV when `format` says so, else JSONL. */
function parseImport(text: string, format: 'jsonl' | 'csv', name: string): DatasetRead {
  return format === 'csv' ? parseCsv(text, name) : parseJsonl(text, name);
}

export function NewDataset({ onCreated }: { onCreated(path: string): void }) {
  const app = useApp();
  const thread = useThread();
  const [name, setName] = useState('');
  const [source, setSource] = useState<Source>('scratch');
  const [format, setFormat] = useState<'jsonl' | 'csv'>('jsonl');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const scenarios = thread?.context.scenarios ?? [];
  const readFile = async (f: File | null) => {
    if (!f) return;
    if (/\.csv$/i.test(f.name)) setFormat('csv');
    else if (/\.jsonl?$/i.test(f.name)) setFormat('jsonl');
    if (!name) setName(f.name.replace(/\.(csv|jsonl?)$/i, ''));
    setText(await f.text());
  };
  const create = async () => {
    const n = name.trim();
    if (!n) return setErrors(['Give the dataset a name.']);
    let d: Dataset = emptyDataset(n);
    if (source === 'scenarios') {
      if (!scenarios.length) return setErrors(['The open thread has no scenarios: open a thread with scenarios, or start from scratch.']);
      d = { ...d, cases: casesFromScenarios(scenarios) };
    } else if (source === 'import') {
      const r = parseImport(text, format, n);
      if (!r.ok) return setErrors(r.errors);
      d = r.dataset;
    }
    try {
      const { path } = await app.host.call('eval.saveDataset', { dataset: d });
      setErrors([]);
      onCreated(path);
    } catch (err) {
      setErrors([errorText(err)]);
    }
  };
  return (
    <Stack gap="sm" maw={720}>
      <Title order={4}>New dataset</Title>
      <TextInput label="Dataset name" value={name} onChange={(e) => setName(e.currentTarget.value)} placeholder="arithmetic" />
      <SegmentedControl
        aria-label="Start from"
        value={source}
        onChange={(v) => setSource(v as Source)}
        data={[
          { value: 'scratch', label: 'From scratch' },
          { value: 'scenarios', label: 'From the thread’s scenarios' },
          { value: 'import', label: 'Import JSONL or CSV' },
        ]}
      />
      {source === 'scenarios' && (
        <Text size="sm" c="dimmed">
          {thread ? `${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'} of “${thread.title}” become cases (the scenario’s name is the case id).` : 'Open a thread first: its scenarios become the cases.'}
        </Text>
      )}
      {source === 'import' && (
        <Stack gap={6}>
          <Group gap="xs">
            <SegmentedControl size="xs" aria-label="Import format" value={format} onChange={(v) => setFormat(v as 'jsonl' | 'csv')} data={[{ value: 'jsonl', label: 'JSONL' }, { value: 'csv', label: 'CSV' }]} />
            <FileButton accept=".jsonl,.json,.csv,text/csv,application/json" onChange={(f) => void readFile(f)}>{(p) => <Button size="xs" variant="default" {...p}>Choose a file</Button>}</FileButton>
          </Group>
          <Textarea
            label="Cases to import"
            description="JSONL: one case object per line ({&quot;id&quot;, &quot;expected&quot;, &quot;tags&quot;, variables…}). CSV: a header row; every column other than id, expected, tags and assertions is a variable."
            autosize
            minRows={4}
            maxRows={14}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
        </Stack>
      )}
      {errors.length > 0 && (
        <Alert color="red" title="The dataset was not created" role="alert">
          <List size="sm">{errors.slice(0, 20).map((e, i) => <List.Item key={i}>{e}</List.Item>)}</List>
          {errors.length > 20 && <Text size="xs">…and {errors.length - 20} more.</Text>}
        </Alert>
      )}
      <Group><Button onClick={() => void create()}>Create dataset</Button></Group>
    </Stack>
  );
}
