import { describe, expect, it } from 'vitest';
import { emptyDataset, type Dataset } from '../../../../shared/eval/dataset';
import { checkDataset } from '../../../../shared/eval/dataset-io';
import { addRow, addVariable, casesFromScenarios, cellText, gridProblems, removeRow, removeVariable, setCell, variableColumns } from './grid';

describe('dataset grid edits', () => {
  it('builds a dataset that checks from rows, variable columns, expected values and tags', () => {
    let d = emptyDataset('arith');
    const added = addVariable(d, 'question', variableColumns(d));
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    d = added.dataset;
    d = addRow(d, ['question']);
    d = addRow(d, ['question']);
    d = setCell(d, 0, { kind: 'var', name: 'question' }, '2+2');
    d = setCell(d, 0, { kind: 'expected' }, '4');
    d = setCell(d, 1, { kind: 'tags' }, ' easy, , words ');
    d = setCell(d, 1, { kind: 'id' }, 'q2');
    expect(d.cases).toEqual([
      { id: 'case-1', vars: { question: '2+2' }, expected: '4' },
      { id: 'q2', vars: { question: '' }, tags: ['easy', 'words'] },
    ]);
    expect(cellText(d.cases[1], { kind: 'tags' })).toBe('easy, words');
    expect(checkDataset(d).ok).toBe(true);
    // Clearing expected and tags removes the fields.
    d = setCell(setCell(d, 0, { kind: 'expected' }, ''), 1, { kind: 'tags' }, ' ');
    expect(d.cases[0]).not.toHaveProperty('expected');
    expect(d.cases[1]).not.toHaveProperty('tags');
  });

  it('adds rows with fresh ids, removes rows and variable columns without touching the input', () => {
    const d0 = { ...emptyDataset('x'), cases: [{ id: 'case-2', vars: { a: '1', b: '2' } }] };
    const d1 = addRow(d0, variableColumns(d0));
    expect(d1.cases[1]).toEqual({ id: 'case-3', vars: { a: '', b: '' } });
    expect(d0.cases).toHaveLength(1);
    expect(removeVariable(d1, 'a').cases.map((c) => c.vars)).toEqual([{ b: '2' }, { b: '' }]);
    expect(removeRow(d1, 0).cases.map((c) => c.id)).toEqual(['case-3']);
    expect(variableColumns(d0, ['c', 'a'])).toEqual(['a', 'b', 'c']);
  });

  it('refuses bad and taken column names, and reports empty and repeated ids by row', () => {
    const d: Dataset = { ...emptyDataset('x'), cases: [{ id: 'a', vars: { q: '' } }, { id: 'a', vars: {} }, { id: '', vars: {} }] };
    expect(addVariable(d, '1x', ['q'])).toEqual({ ok: false, error: expect.stringContaining('"1x" is not a variable name') });
    expect(addVariable(d, 'q', ['q'])).toEqual({ ok: false, error: 'there is already a column "q"' });
    expect(gridProblems(d)).toEqual(['row 2: case id "a" is also used in row 1', 'row 3: the case id is empty']);
  });

  it('makes one case per scenario, repeated names numbered', () => {
    expect(casesFromScenarios([{ name: 'calm', variables: { tone: 'calm' } }, { name: 'calm', variables: {} }])).toEqual([
      { id: 'calm', vars: { tone: 'calm' } },
      { id: 'calm-2', vars: {} },
    ]);
  });
});
