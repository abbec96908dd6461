/** Two batches of one dataset compared case by case (shared/eval/results.ts compareBatches): regressions and improvements. */
import { useEffect, useState } from 'react';
import { Group, List, Stack, Text } from '@mantine/core';
import { compareBatches, type CaseResult } from '../../../../shared/eval/results';
import { useApp } from '../../state/context';
import type { BatchInfo } from './types';
import type { CaseResultWire } from './types';

export function CompareBatches({ before, after, afterResults }: { before: BatchInfo; after: BatchInfo; afterResults: CaseResultWire[] }) {
  const app = useApp();
  const [old, setOld] = useState<CaseResultWire[] | null>(null);
  useEffect(() => {
    app.host.call('eval.batch', { batchId: before.id }).then((b) => setOld(b.results), () => setOld([]));
  }, [app, before.id]);
  if (!old) return <Text size="xs" c="dimmed">Loading {before.name}…</Text>;
  const c = compareBatches(old as CaseResult[], afterResults as CaseResult[]);
  return (
    <Stack gap={4} aria-label={`${after.name} compared with ${before.name}`}>
      <Text size="sm">{c.regressions.length} regression{c.regressions.length === 1 ? '' : 's'}, {c.improvements.length} improvement{c.improvements.length === 1 ? '' : 's'}, {c.unchanged} unchanged (since {before.name}).</Text>
      <Group align="flex-start" gap="xl">
        <Stack gap={2}>
          <Text size="xs" fw={600} c="red">Regressions</Text>
          <List size="xs">{c.regressions.map((r) => <List.Item key={r.caseId + r.variant}>{r.caseId} [{r.variant}]: {r.before} → {r.after}</List.Item>)}</List>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" fw={600} c="green">Improvements</Text>
          <List size="xs">{c.improvements.map((r) => <List.Item key={r.caseId + r.variant}>{r.caseId} [{r.variant}]: {r.before} → {r.after}</List.Item>)}</List>
        </Stack>
      </Group>
    </Stack>
  );
}
