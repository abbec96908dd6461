import { describe, expect, it } from 'vitest';
import { compareRuns, summarizeRun } from '../../../renderer/src/features/runs/compare';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { ExecNode } from '../../../shared/protocol/nodes';

function record(runId: string, sum: number, reply: string): RunRecord {
  const n = (id: string, extra: Partial<ExecNode>): ExecNode => ({ id, runId, kind: 'llm', name: 'scripted', status: 'completed', startedAt: 0, endedAt: 10, ...extra });
  const nodes: ExecNode[] = [
    n(`${runId}.1`, { kind: 'run', name: 'react', startedAt: 0, endedAt: 50 }),
    n(`${runId}.2`, { parentId: `${runId}.1`, startedAt: 1, usage: { inputTokens: 10, outputTokens: 5 }, output: { text: 'Adding.', toolCalls: [{ id: 'c', name: 'get-sum', arguments: { a: 1, b: sum - 1 } }] } }),
    n(`${runId}.3`, { parentId: `${runId}.2`, kind: 'tool', name: 'get-sum', startedAt: 2, input: { a: 1, b: sum - 1 }, output: { content: [{ type: 'text', text: `The sum is ${sum}.` }], isError: false } }),
    n(`${runId}.4`, { parentId: `${runId}.1`, startedAt: 3, usage: { inputTokens: 20, outputTokens: 7 }, output: { text: reply } }),
  ];
  return { runId, threadId: 't', mode: 'react', status: 'completed', startedAt: 0, endedAt: 50, nodes, records: [] };
}

describe('run comparison', () => {
  it('summarizes a run in tree order with totals', () => {
    const s = summarizeRun(record('r1', 5, 'Five.'));
    expect(s.steps.map((x) => `${x.kind} ${x.name}: ${x.text}`)).toEqual(['llm scripted: Adding.', 'tool get-sum: The sum is 5.', 'llm scripted: Five.']);
    expect(s.steps[0].detail).toBe('get-sum({"a":1,"b":4})');
    expect(s).toMatchObject({ inputTokens: 30, outputTokens: 12, llmCalls: 2, toolCalls: 1, durationMs: 50 });
  });

  it('pairs steps and marks the ones that differ', () => {
    const rows = compareRuns(summarizeRun(record('r1', 5, 'Five.')), summarizeRun(record('r2', 7, 'Seven.')));
    expect(rows.map((r) => r.same)).toEqual([false, false, false]);
    const same = compareRuns(summarizeRun(record('r1', 5, 'Five.')), summarizeRun(record('r2', 5, 'Five.')));
    expect(same.map((r) => r.same)).toEqual([true, true, true]);
    const longer = compareRuns(summarizeRun(record('r1', 5, 'Five.')), { ...summarizeRun(record('r2', 5, 'Five.')), steps: summarizeRun(record('r2', 5, 'Five.')).steps.slice(0, 2) });
    expect(longer.map((r) => r.same)).toEqual([true, true, false]);
    expect(longer[2].b).toBeUndefined();
  });
});
