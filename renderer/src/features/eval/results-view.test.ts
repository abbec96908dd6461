import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../../../shared/eval/results';
import { caseRows, cellLabel, filterRows } from './results-view';

function result(caseId: string, variant: string, status: CaseResult['status'], finalText = '', reason = 'ok'): CaseResult {
  return {
    caseId,
    variant,
    status,
    assertions: [{ type: 'contains', status: status === 'passed' ? 'pass' : 'fail', reason }],
    outcome: { status: 'completed', finalText, toolCalls: [], turns: 1, inputTokens: 1, outputTokens: 2 },
    startedAt: 0,
    endedAt: 1,
    attempts: 1,
  };
}

const results = [
  result('q1', 'base', 'passed', 'The answer is 4.'),
  result('q2', 'base', 'passed', 'Four, it is 4.'),
  result('q1', 'terse', 'passed', '4'),
  result('q2', 'terse', 'failed', 'No idea.', 'the final text does not contain "4"'),
];

describe('results grid rows and filters', () => {
  it('groups results by case, one cell per variant', () => {
    const rows = caseRows(results);
    expect(rows.map((r) => r.caseId)).toEqual(['q1', 'q2']);
    expect(Object.keys(rows[1].cells)).toEqual(['base', 'terse']);
  });

  it('filters by status of any variant, by tag, and by text in ids, outputs and reasons', () => {
    const rows = caseRows(results);
    const all = { status: 'all' as const, tag: '', text: '' };
    expect(filterRows(rows, all).map((r) => r.caseId)).toEqual(['q1', 'q2']);
    expect(filterRows(rows, { ...all, status: 'failed' }).map((r) => r.caseId)).toEqual(['q2']);
    expect(filterRows(rows, { ...all, status: 'error' })).toEqual([]);
    expect(filterRows(rows, { ...all, tag: 'hard' }, (id) => (id === 'q1' ? ['hard'] : [])).map((r) => r.caseId)).toEqual(['q1']);
    expect(filterRows(rows, { ...all, text: 'NO IDEA' }).map((r) => r.caseId)).toEqual(['q2']);
    expect(filterRows(rows, { ...all, text: 'does not contain' }).map((r) => r.caseId)).toEqual(['q2']);
    expect(filterRows(rows, { ...all, text: 'q1' }).map((r) => r.caseId)).toEqual(['q1']);
  });

  it('names a failing cell with the failing assertions’ reasons', () => {
    expect(cellLabel(results[3])).toBe('q2, terse: failed — contains: the final text does not contain "4"');
    expect(cellLabel(results[0])).toBe('q1, base: passed');
    expect(cellLabel({ ...results[0], status: 'error', error: 'the runner process died' })).toBe('q1, base: error — the runner process died');
  });
});
