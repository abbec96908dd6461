/**
 * Two runs side by side (see compare.ts), as a table: one column per run, headed with the run
 * it shows (short id, start time, model, status); totals, then each step paired, differences
 * marked.
 */
import { Badge, Group, Modal, Stack, Table, Text } from '@mantine/core';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import { StatusBadge } from '../../ui/status';
import { formatMs, truncate } from '../../ui/format';
import { RunDiff } from './RunDiff';
import { VerdictForm } from './VerdictForm';
import type { ThreadSession } from '../../state/thread-session';
import { compareRuns, runLabel, shortRunId, summarizeRun, type RunStep, type RunSummary } from './compare';

/** Column header of one run: what Run history shows of it, and its label as accessible name. */
function RunHeader({ s }: { s: RunSummary }) {
  return (
    <Table.Th scope="col" aria-label={runLabel(s)}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600}>Run <Text span ff="monospace" inherit>{shortRunId(s.runId)}</Text></Text>
        <StatusBadge status={s.status} />
      </Group>
      <Text size="xs" c="dimmed" fw={400}>started {new Date(s.startedAt).toLocaleString()} · {s.model ?? 'no model call'}</Text>
    </Table.Th>
  );
}

function Totals({ s }: { s: RunSummary }) {
  return (
    <Text size="xs">{s.mode} · {s.durationMs !== undefined ? formatMs(s.durationMs) : '…'} · {s.llmCalls} model call{s.llmCalls === 1 ? '' : 's'} · {s.toolCalls} tool call{s.toolCalls === 1 ? '' : 's'} · {s.inputTokens}→{s.outputTokens} tokens</Text>
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

const cell = { verticalAlign: 'top' } as const;

/** The comparison dialog of two runs (`records` null: closed); with `session`, the verdict form saves into that thread. */
export function CompareRuns({ records, session, onClose }: { records: [RunRecord, RunRecord] | null; session?: ThreadSession; onClose(): void }) {
  if (!records) return null;
  const [a, b] = records.map(summarizeRun);
  const rows = compareRuns(a, b);
  const differing = rows.filter((r) => !r.same).length;
  return (
    <Modal opened onClose={onClose} title="Compare runs" size="90%" centered>
      <Text size="sm" mb="xs" aria-live="polite">{differing === 0 ? 'The two runs did the same steps with the same results.' : `${differing} of ${rows.length} steps differ.`}</Text>
      <Table fz="xs" layout="fixed" withRowBorders aria-label="Runs compared step by step">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={90}>Step</Table.Th>
            <RunHeader s={a} />
            <RunHeader s={b} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row" fw={500}>Totals</Table.Th>
            <Table.Td style={cell}><Totals s={a} /></Table.Td>
            <Table.Td style={cell}><Totals s={b} /></Table.Td>
          </Table.Tr>
          {rows.map((r, i) => (
            <Table.Tr key={i} aria-label={`step ${i + 1}, ${r.same ? 'same' : 'differs'}`}>
              <Table.Th scope="row" fw={500} style={{ ...cell, borderLeft: `3px solid var(--mantine-color-${r.same ? 'gray' : 'orange'}-5)` }}>
                {i + 1}
                {!r.same && <Badge size="xs" color="orange" variant="light" ml={4}>differs</Badge>}
              </Table.Th>
              <Table.Td style={cell}><Step step={r.a} /></Table.Td>
              <Table.Td style={cell}><Step step={r.b} /></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <RunDiff a={records[0]} b={records[1]} />
      {session && <VerdictForm key={`${a.runId} ${b.runId}`} session={session} runA={a.runId} runB={b.runId} />}
    </Modal>
  );
}
