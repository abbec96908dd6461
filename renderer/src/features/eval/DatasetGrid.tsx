/** The case grid of a dataset: one row per case; id, variables, expected value and tags are cells (grid.ts). */
import { useState } from 'react';
import { ActionIcon, Button, Group, Table, Text, TextInput } from '@mantine/core';
import type { Dataset } from '../../../../shared/eval/dataset';
import { addRow, addVariable, cellText, removeRow, removeVariable, setCell, variableColumns, type GridColumn } from './grid';

function label(col: GridColumn): string {
  return col.kind === 'var' ? col.name : col.kind;
}

export function DatasetGrid({ dataset, onChange }: { dataset: Dataset; onChange(d: Dataset): void }) {
  // Columns added while no case has them yet (cases get the variable when the column is added).
  const [extra, setExtra] = useState<string[]>([]);
  const [newVar, setNewVar] = useState('');
  const [varError, setVarError] = useState<string | null>(null);
  const vars = variableColumns(dataset, extra);
  const columns: GridColumn[] = [{ kind: 'id' }, ...vars.map((name) => ({ kind: 'var' as const, name })), { kind: 'expected' }, { kind: 'tags' }];
  const add = () => {
    const r = addVariable(dataset, newVar.trim(), vars);
    if (!r.ok) return setVarError(r.error);
    setExtra([...extra, newVar.trim()]);
    setNewVar('');
    setVarError(null);
    onChange(r.dataset);
  };
  return (
    <>
      <Table withTableBorder withColumnBorders fz="xs" aria-label="Cases">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={30}>#</Table.Th>
            {columns.map((c) => (
              <Table.Th key={label(c)}>
                <Group gap={2} wrap="nowrap">
                  <Text size="xs" fw={600} ff={c.kind === 'var' ? 'monospace' : undefined}>{label(c)}</Text>
                  {c.kind === 'var' && (
                    <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Remove variable ${c.name}`} onClick={() => { setExtra(extra.filter((x) => x !== c.name)); onChange(removeVariable(dataset, c.name)); }}>×</ActionIcon>
                  )}
                </Group>
              </Table.Th>
            ))}
            <Table.Th w={30} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {dataset.cases.map((c, row) => (
            <Table.Tr key={row}>
              <Table.Td>{row + 1}</Table.Td>
              {columns.map((col) => (
                <Table.Td key={label(col)} p={2}>
                  <TextInput size="xs" variant="unstyled" aria-label={`${label(col)} of case ${row + 1}`} value={cellText(c, col)} onChange={(e) => onChange(setCell(dataset, row, col, e.currentTarget.value))} />
                </Table.Td>
              ))}
              <Table.Td p={2}>
                <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Remove case ${row + 1}`} onClick={() => onChange(removeRow(dataset, row))}>×</ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {dataset.cases.length === 0 && <Text size="xs" c="dimmed">No cases yet — Add case, and Add variable for each template variable the thread uses.</Text>}
      <Group gap="xs" align="flex-start">
        <Button size="xs" variant="light" onClick={() => onChange(addRow(dataset, vars))}>Add case</Button>
        <TextInput size="xs" aria-label="New variable name" placeholder="variable name" value={newVar} error={varError} onChange={(e) => setNewVar(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Enter' && add()} />
        <Button size="xs" variant="light" disabled={!newVar.trim()} onClick={add}>Add variable</Button>
      </Group>
    </>
  );
}
