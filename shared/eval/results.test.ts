import { describe, expect, it } from 'vitest';
import { caseStatus, compareBatches, percentile, summarize, type CaseResult } from './results';

const r = (caseId: string, variant: string, status: CaseResult['status'], latencyMs?: number, score?: number): CaseResult => ({
  caseId,
  variant,
  status,
  assertions: score === undefined ? [] : [{ type: 'judge', status: 'pass', reason: '', score }],
  startedAt: 0,
  endedAt: 1,
  attempts: 1,
  ...(latencyMs === undefined ? {} : { outcome: { status: 'completed', finalText: '', toolCalls: [], turns: 1, inputTokens: 10, outputTokens: 5, latencyMs } }),
});

describe('batch results', () => {
  it('a case passes only when its run completed and every assertion passed; an assertion that could not be checked is an error', () => {
    expect(caseStatus('completed', [])).toBe('passed');
    expect(caseStatus('completed', [{ type: 'contains', status: 'fail', reason: '' }])).toBe('failed');
    expect(caseStatus('completed', [{ type: 'max_cost', status: 'error', reason: '' }])).toBe('error');
    expect(caseStatus('interrupted', [])).toBe('error');
    expect(caseStatus(undefined, [])).toBe('error');
  });

  it('percentiles by nearest rank', () => {
    expect(percentile([], 50)).toBeUndefined();
    expect(percentile([5], 95)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5);
    expect(percentile([10, 1, 9, 2, 8, 3, 7, 4, 6, 5], 95)).toBe(10);
  });

  it('summarizes per variant: pass rate, p50/p95, tokens, mean judge score', () => {
    const rs = [r('a', 'x', 'passed', 100, 4), r('b', 'x', 'failed', 300, 2), r('c', 'x', 'error'), r('a', 'y', 'passed', 50)];
    const [x, y] = summarize(rs, ['x', 'y']);
    expect(x).toEqual({ variant: 'x', total: 3, passed: 1, failed: 1, error: 1, passRate: 1 / 3, p50Ms: 100, p95Ms: 300, tokens: 30, meanScore: 3 });
    expect(y).toMatchObject({ total: 1, passed: 1, passRate: 1, p50Ms: 50 });
  });

  it('compares two batches case by case', () => {
    const before = [r('a', 'x', 'passed'), r('b', 'x', 'failed'), r('c', 'x', 'passed'), r('d', 'x', 'passed')];
    const after = [r('a', 'x', 'failed'), r('b', 'x', 'passed'), r('c', 'x', 'passed'), r('e', 'x', 'passed')];
    expect(compareBatches(before, after)).toEqual({
      regressions: [{ caseId: 'a', variant: 'x', before: 'passed', after: 'failed' }],
      improvements: [{ caseId: 'b', variant: 'x', before: 'failed', after: 'passed' }],
      unchanged: 1,
    });
  });
});
