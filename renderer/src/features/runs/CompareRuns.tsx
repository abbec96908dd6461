/** Two runs side by side (see compare.ts): totals, then each step paired, differences marked. */
import { Badge, Box, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import { StatusBadge } from '../../ui/status';
import { formatMs, truncate } from '../../ui/format';
import { compareRuns, summarizeRun, type RunStep, type RunSummary } from './compare';

function Totals({ s }: { s: RunSummary }) {
  return (
    <Group gap={6}>
      <StatusBadge status={s.status} />
      <Text size="xs">{s.mode} · {s.durationMs !== undefined ? formatMs(s.durationMs) : '…'} · {s.llmCalls} model call{s.llmCalls === 1 ? '' : 's'} · {s.toolCalls} tool call{s.toolCalls === 1 ? '' : 's'} · {s.inputTokens}→{s.outputTokens} tokens</Text>
    </Group>
  );
}

function Step({ step }: { step?: RunStep }) {
  if (!step) return <Text size="xs" c="dimmed">—</Text>;
  return (
    <Stack gap={2}>
      <Group gap={4}>
        <Text size="xs" c="dimmed">{step.kind}</Text>
        <Text size="xs" ff="monospace" fw={500}>{step.name}</Text>
        <StatusBadge status={step.status} />
        {step.durationMs !== undefined && <Text size="xs" c="dimmed">{formatMs(step.durationMs)}</Text>}
      </Group>
      {step.detail && <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>{truncate(step.detail, 400)}</Text>}
      {step.text && <Text size="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{truncate(step.text, 1500)}</Text>}
    </Stack>
  );
}

export function CompareRuns({ records, onClose }: { records: [RunRecord, RunRecord] | null; onClose(): void }) {
  if (!records) return null;
  const [a, b] = records.map(summarizeRun);
  const rows = compareRuns(a, b);
  const differing = rows.filter((r) => !r.same).length;
  return (
    <Modal opened onClose={onClose} title="Compare runs" size="90%" centered>
      <Text size="sm" mb="xs" aria-live="polite">{differing === 0 ? 'The two runs did the same steps with the same results.' : `${differing} of ${rows.length} steps differ.`}</Text>
      <SimpleGrid cols={2} spacing="sm" mb="xs">
        <Totals s={a} />
        <Totals s={b} />
      </SimpleGrid>
      <Stack gap={4}>
        {rows.map((r, i) => (
          <Box key={i} aria-label={`step ${i + 1}, ${r.same ? 'same' : 'differs'}`} p={6}
            style={{ border: '1px solid var(--mantine-color-default-border)', borderLeft: `3px solid var(--mantine-color-${r.same ? 'gray' : 'orange'}-5)`, borderRadius: 4 }}>
            {!r.same && <Badge size="xs" color="orange" variant="light" mb={4}>differs</Badge>}
            <SimpleGrid cols={2} spacing="sm">
              <Step step={r.a} />
              <Step step={r.b} />
            </SimpleGrid>
          </Box>
        ))}
      </Stack>
    </Modal>
  );
}
