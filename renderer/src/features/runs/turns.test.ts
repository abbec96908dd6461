import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { ExecNode } from '../../../../shared/protocol/nodes';
import type { RunRef } from '../../../../shared/thread/schema';
import { compareRuns, summarizeRun } from './compare';
import { groupTurns, mergeTurn, turnDurationMs } from './turns';

const ref = (id: string, mode: RunRef['mode'], turn?: string): RunRef => ({ id, startedAt: 1, endedAt: 2, durationMs: 10, status: 'completed', mode, ...(turn ? { turn } : {}) });

function node(runId: string, id: string, extra: Partial<ExecNode>): ExecNode {
  return { id: `${runId}.${id}`, runId, kind: 'llm', name: 'scripted', status: 'completed', startedAt: 0, endedAt: 10, ...extra };
}

/** The example's turn as the host stores it: the model run (tools left waiting), the tool run, the continuing run. */
function exampleTurn(): RunRecord[] {
  const rec = (runId: string, mode: RunRecord['mode'], nodes: ExecNode[]): RunRecord => ({ runId, threadId: 't', mode, status: 'completed', startedAt: 0, endedAt: 100, nodes, records: [] });
  const tool = (runId: string, id: string, name: string, status: ExecNode['status'], start: number, out?: string, parentId = `${runId}.llm`) =>
    node(runId, id, { kind: 'tool', name, toolCallId: `call-${name}`, parentId, status, startedAt: start, input: { n: name }, ...(out ? { output: { content: [{ type: 'text', text: out }] } } : {}) });
  return [
    rec('r1', 'step', [
      node('r1', 'root', { kind: 'run', name: 'step', durationMs: 2000 }),
      node('r1', 'llm', { parentId: 'r1.root', startedAt: 1, usage: { inputTokens: 187, outputTokens: 58 }, output: { text: 'Adding.', toolCalls: [{ id: 'call-get-sum', name: 'get-sum', arguments: {} }, { id: 'call-haiku', name: 'haiku', arguments: {} }] } }),
      tool('r1', 't1', 'get-sum', 'awaiting_input', 2),
      tool('r1', 't2', 'haiku', 'awaiting_input', 3),
    ]),
    rec('r2', 'tool', [
      node('r2', 'root', { kind: 'run', name: 'tool', durationMs: 400 }),
      tool('r2', 't1', 'haiku', 'completed', 50, 'Grey water climbs in', 'r2.root'),
      tool('r2', 't2', 'get-sum', 'completed', 51, 'The sum is 42.', 'r2.root'),
    ]),
    rec('r3', 'step', [
      node('r3', 'root', { kind: 'run', name: 'step', durationMs: 1500 }),
      node('r3', 'llm', { parentId: 'r3.root', startedAt: 90, usage: { inputTokens: 251, outputTokens: 42 }, output: { text: 'Both tools have answered.' } }),
    ]),
  ];
}

describe('groupTurns (issue 30 item 2)', () => {
  it('lists a turn once, newest turn first, its later runs oldest first', () => {
    const refs = [ref('r5', 'step'), ref('r3', 'step', 'r1'), ref('r2', 'tool', 'r1'), ref('r1', 'step'), ref('r0', 'react')];
    expect(groupTurns(refs).map((t) => [t.first.id, t.rest.map((r) => r.id)])).toEqual([['r5', []], ['r1', ['r2', 'r3']], ['r0', []]]);
    expect(turnDurationMs(groupTurns(refs)[1], (r) => r.durationMs)).toBe(30);
  });

  it('a run whose turn\'s first run was deleted is a turn of its own', () => {
    expect(groupTurns([ref('r3', 'step', 'gone'), ref('r2', 'tool', 'gone')]).map((t) => t.first.id)).toEqual(['r3', 'r2']);
  });
});

describe('mergeTurn', () => {
  it('shows the turn\'s tools as run, in the place they waited, and sums what the runs did', () => {
    const s = summarizeRun(mergeTurn(exampleTurn()));
    expect(s.steps.map((x) => `${x.kind} ${x.name} ${x.status}: ${x.text}`)).toEqual([
      'llm scripted completed: Adding.',
      'tool get-sum completed: The sum is 42.',
      'tool haiku completed: Grey water climbs in',
      'llm scripted completed: Both tools have answered.',
    ]);
    expect(s).toMatchObject({ runId: 'r1', mode: 'step + tool + step', toolCalls: 2, llmCalls: 2, inputTokens: 438, outputTokens: 100, durationMs: 3900, status: 'completed' });
  });

  it('compared with the same turn, every step is the same (the old comparison had "awaiting input" against "0 tool calls")', () => {
    const rows = compareRuns(summarizeRun(mergeTurn(exampleTurn())), summarizeRun(mergeTurn(exampleTurn())));
    expect(rows.every((r) => r.same)).toBe(true);
    expect(rows).toHaveLength(4);
  });

  it('a run alone is itself', () => {
    const [one] = exampleTurn();
    expect(mergeTurn([one])).toBe(one);
  });
});
