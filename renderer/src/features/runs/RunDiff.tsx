/**
 * Word-level differences of two runs (Compare runs): their final messages and their tool
 * calls (word-diff.ts), and the differences in cost, tokens and time (B − A), from each
 * run's outcome (shared/eval/outcome.ts).
 */
import { Stack, Table, Text } from '@mantine/core';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import { outcomeOf, type CaseOutcome } from '../../../../shared/eval/outcome';
import { formatMs } from '../../ui/format';
import { wordDiff } from './word-diff';

function DiffText({ a, b, label }: { a: string; b: string; label: string }) {
  const parts = wordDiff(a, b);
  if (!parts.length) return <Text size="xs" c="dimmed">(none in either run)</Text>;
  return (
    <Text size="xs" aria-label={label} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {parts.map((p, i) =>
        p.op === 'same' ? <span key={i}>{p.text}</span>
        : p.op === 'removed' ? <del key={i} style={{ background: 'var(--mantine-color-red-light)' }}>{p.text}</del>
        : <ins key={i} style={{ background: 'var(--mantine-color-green-light)', textDecoration: 'none' }}>{p.text}</ins>,
      )}
    </Text>
  );
}

const calls = (o: CaseOutcome) => o.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join('\n');

function signed(n: number | undefined, fmt: (x: number) => string): string {
  if (n === undefined) return '—';
  return n > 0 ? `+${fmt(n)}` : n < 0 ? `−${fmt(-n)}` : '±0';
}

export function RunDiff({ a, b }: { a: RunRecord; b: RunRecord }) {
  const x = outcomeOf(a.nodes);
  const y = outcomeOf(b.nodes);
  const diff = (f: (o: CaseOutcome) => number | undefined) => {
    const p = f(x);
    const q = f(y);
    return p === undefined || q === undefined ? undefined : q - p;
  };
  const rows: [string, string, string, string][] = [
    ['tokens', String(x.inputTokens + x.outputTokens), String(y.inputTokens + y.outputTokens), signed(diff((o) => o.inputTokens + o.outputTokens), String)],
    ['cost', x.costUsd !== undefined ? `$${x.costUsd.toFixed(4)}` : '—', y.costUsd !== undefined ? `$${y.costUsd.toFixed(4)}` : '—', signed(diff((o) => o.costUsd), (n) => `$${n.toFixed(4)}`)],
    ['time', formatMs(x.latencyMs), formatMs(y.latencyMs), signed(diff((o) => o.latencyMs), (n) => formatMs(n))],
    ['model calls', String(x.turns), String(y.turns), signed(diff((o) => o.turns), String)],
  ];
  return (
    <Stack gap={6} mt="md">
      <Text fw={600} size="sm">Differences, word by word (A removed, B added)</Text>
      <Table fz="xs" layout="fixed" aria-label="Cost, tokens and time of the two runs">
        <Table.Thead><Table.Tr><Table.Th /><Table.Th>A</Table.Th><Table.Th>B</Table.Th><Table.Th>B − A</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {rows.map(([k, p, q, d]) => (
            <Table.Tr key={k}><Table.Th scope="row" fw={500}>{k}</Table.Th><Table.Td>{p}</Table.Td><Table.Td>{q}</Table.Td><Table.Td aria-label={`${k} difference`}>{d}</Table.Td></Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" fw={500}>Final message</Text>
      <DiffText a={x.finalText} b={y.finalText} label="Final message difference" />
      <Text size="xs" fw={500}>Tool calls</Text>
      <DiffText a={calls(x)} b={calls(y)} label="Tool calls difference" />
    </Stack>
  );
}
