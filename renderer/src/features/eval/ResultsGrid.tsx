/**
 * Results of a batch: cases × variants, each cell the case's status with its failing
 * assertions' reasons (title and expandable), judge score, tokens, cost and latency; a
 * summary row per variant (pass rate, p50/p95, shared/eval/results.ts); filters.
 */
import { useState } from 'react';
import { Badge, Group, Select, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { summarize, type CaseResult } from '../../../../shared/eval/results';
import { formatMs } from '../../ui/format';
import { caseRows, cellLabel, filterRows, type ResultFilter } from './results-view';
import type { CaseResultWire } from './types';

const COLOR = { passed: 'green', failed: 'red', error: 'orange' } as const;

function Cell({ r, onOpen }: { r: CaseResultWire; onOpen(r: CaseResultWire): void }) {
  const [open, setOpen] = useState(false);
  const o = r.outcome;
  const score = r.assertions.find((a) => a.score !== undefined)?.score;
  const failing = r.assertions.filter((a) => a.status !== 'pass');
  return (
    <Stack gap={2}>
      <Group gap={4} wrap="nowrap">
        <UnstyledButton aria-label={`Open ${cellLabel(r as CaseResult)}`} title={cellLabel(r as CaseResult)} onClick={() => onOpen(r)} disabled={!r.threadFile}>
          <Badge size="sm" color={COLOR[r.status]} variant="light" style={{ cursor: r.threadFile ? 'pointer' : undefined }}>{r.status}</Badge>
        </UnstyledButton>
        {score !== undefined && <Text size="xs" title="judge score (1–5)">★{score}</Text>}
        {(failing.length > 0 || r.error) && (
          <UnstyledButton aria-expanded={open} aria-label={`Why ${r.caseId} ${r.variant} ${r.status}`} onClick={() => setOpen(!open)}><Text size="xs" c="dimmed">{open ? '▾ why' : '▸ why'}</Text></UnstyledButton>
        )}
      </Group>
      {o && <Text size="xs" c="dimmed">{o.inputTokens + o.outputTokens} tok{o.costUsd !== undefined ? ` · $${o.costUsd.toFixed(4)}` : ''}{o.latencyMs !== undefined ? ` · ${formatMs(o.latencyMs)}` : ''}</Text>}
      {open && (
        <Stack gap={0}>
          {r.error && <Text size="xs" c="orange">{r.error}</Text>}
          {failing.map((a, i) => <Text key={i} size="xs" c="red">{a.type}: {a.reason}</Text>)}
        </Stack>
      )}
    </Stack>
  );
}

export function ResultsGrid({ results, variants, tagsOf, onOpen }: { results: CaseResultWire[]; variants: string[]; tagsOf(id: string): readonly string[]; onOpen(r: CaseResultWire): void }) {
  const [filter, setFilter] = useState<ResultFilter>({ status: 'all', tag: '', text: '' });
  const rows = filterRows(caseRows(results as CaseResult[]), filter, tagsOf);
  const summaries = summarize(results as CaseResult[], variants);
  const allTags = [...new Set(caseRows(results as CaseResult[]).flatMap((r) => tagsOf(r.caseId)))];
  if (!results.length) return <Text size="sm" c="dimmed">No case has finished yet.</Text>;
  return (
    <Stack gap={6}>
      <Group gap="xs">
        <Select size="xs" w={140} aria-label="Filter by status" allowDeselect={false} value={filter.status} onChange={(v) => setFilter({ ...filter, status: (v ?? 'all') as ResultFilter['status'] })} data={[{ value: 'all', label: 'every status' }, 'passed', 'failed', 'error']} />
        <Select size="xs" w={140} aria-label="Filter by tag" clearable placeholder="any tag" value={filter.tag || null} onChange={(v) => setFilter({ ...filter, tag: v ?? '' })} data={allTags} />
        <TextInput size="xs" aria-label="Filter by text" placeholder="case id, output or reason" value={filter.text} onChange={(e) => setFilter({ ...filter, text: e.currentTarget.value })} />
        <Text size="xs" c="dimmed">{rows.length} case{rows.length === 1 ? '' : 's'} shown</Text>
      </Group>
      <Table withTableBorder withColumnBorders fz="xs" aria-label="Results">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>case</Table.Th>
            {variants.map((v) => <Table.Th key={v}>{v}</Table.Th>)}
          </Table.Tr>
          <Table.Tr>
            <Table.Th fw={400}>pass rate · p50 / p95</Table.Th>
            {summaries.map((s) => (
              <Table.Th key={s.variant} fw={400} aria-label={`summary of ${s.variant}`}>
                {s.passed}/{s.total} passed ({Math.round(100 * s.passRate)}%) · {formatMs(s.p50Ms)} / {formatMs(s.p95Ms)} · {s.tokens} tok{s.costUsd !== undefined ? ` · $${s.costUsd.toFixed(4)}` : ''}{s.meanScore !== undefined ? ` · ★${s.meanScore.toFixed(1)}` : ''}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.caseId}>
              <Table.Td ff="monospace">{row.caseId}</Table.Td>
              {variants.map((v) => (
                <Table.Td key={v} style={{ verticalAlign: 'top' }}>{row.cells[v] ? <Cell r={row.cells[v] as CaseResultWire} onOpen={onOpen} /> : <Text size="xs" c="dimmed">—</Text>}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
