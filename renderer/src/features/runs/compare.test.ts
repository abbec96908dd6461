import { describe, expect, it } from 'vitest';
import { compareRuns, runLabel, summarizeRun } from './compare';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { ExecNode } from '../../../../shared/protocol/nodes';

function record(runId: string, sum: number, reply: string): RunRecord {
  const n = (id: string, extra: Partial<ExecNode>): ExecNode => ({ id, runId, kind: 'llm', name: 'scripted', model: 'scripted/scripted', status: 'completed', startedAt: 0, endedAt: 10, ...extra });
  const nodes: ExecNode[] = [
    n(`${runId}.1`, { kind: 'run', name: 'react', model: undefined, startedAt: 0, endedAt: 50 }),
    n(`${runId}.2`, { parentId: `${runId}.1`, startedAt: 1, usage: { inputTokens: 10, outputTokens: 5 }, output: { text: 'Adding.', toolCalls: [{ id: 'c', name: 'get-sum', arguments: { a: 1, b: sum - 1 } }] } }),
    n(`${runId}.3`, { parentId: `${runId}.2`, kind: 'tool', name: 'get-sum', model: undefined, startedAt: 2, input: { a: 1, b: sum - 1 }, output: { content: [{ type: 'text', text: `The sum is ${sum}.` }], isError: false } }),
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

  it('summarizes a run nested 100,000 levels (agent within agent) in tree order, and one of 100,000 siblings', () => {
    const N = 100_000;
    const node = (i: number, parentId: string | undefined): ExecNode => ({ id: `n${i}`, runId: 'deep', ...(parentId && { parentId }), kind: i ? 'agent' : 'run', name: 'a', status: 'completed', startedAt: i, endedAt: N + 1, output: { text: `level ${i}` } });
    const base = record('deep', 5, 'Five.');
    const deep = summarizeRun({ ...base, nodes: Array.from({ length: N }, (_, i) => node(i, i ? `n${i - 1}` : undefined)) });
    expect(deep.steps.length).toBe(N - 1);
    expect(deep.steps[0].text).toBe('level 1');
    expect(deep.steps[N - 2].text).toBe(`level ${N - 1}`);
    const wide = summarizeRun({ ...base, nodes: Array.from({ length: N }, (_, i) => node(N - 1 - i, N - 1 - i ? 'n0' : undefined)) });
    expect(wide.steps.map((x) => x.text).slice(0, 2)).toEqual(['level 1', 'level 2']);
    expect(wide.steps.length).toBe(N - 1);
  });
});

describe('run comparison column labels', () => {
  const at = (ms: number) => `T+${ms}`;

  it('name each run by short id, start time, model and status, so two runs tell apart', () => {
    const first = summarizeRun({ ...record('1a2b3c4d-aaaa', 5, 'Five.'), startedAt: 1000 });
    const second = summarizeRun({ ...record('9f8e7d6c-bbbb', 7, 'Seven.'), startedAt: 2000, status: 'error' });
    expect(first).toMatchObject({ startedAt: 1000, model: 'scripted/scripted' });
    expect(runLabel(first, at)).toBe('run 1a2b3c4d, started T+1000, scripted/scripted, completed');
    expect(runLabel(second, at)).toBe('run 9f8e7d6c, started T+2000, scripted/scripted, error');
  });

  it('names the model of the first model call, says when there was none, and words statuses as elsewhere', () => {
    const rec = record('r3', 5, 'Five.');
    rec.nodes[1] = { ...rec.nodes[1], model: 'openai/gpt-4.1-mini' };
    rec.nodes[3] = { ...rec.nodes[3], model: 'anthropic/claude-sonnet-4-5' };
    expect(runLabel(summarizeRun(rec), at)).toBe('run r3, started T+0, openai/gpt-4.1-mini, completed');
    const toolOnly: RunRecord = { ...rec, mode: 'tool', status: 'awaiting_input', nodes: [rec.nodes[0], { ...rec.nodes[2], parentId: rec.nodes[0].id }] };
    expect(runLabel(summarizeRun(toolOnly), at)).toBe('run r3, started T+0, no model call, awaiting input');
  });

  it('formats the start time as Run history does by default', () => {
    const s = summarizeRun({ ...record('r4', 5, 'Five.'), startedAt: Date.UTC(2026, 10, 29, 14, 2, 3) });
    expect(runLabel(s)).toContain(`started ${new Date(Date.UTC(2026, 10, 29, 14, 2, 3)).toLocaleString()},`);
  });
});
