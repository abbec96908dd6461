import { describe, expect, it } from 'vitest';
import { validateThread } from './validate';
import { THREAD_VERSION, type Thread } from './schema';
import type { Evaluation } from './evaluation';

const thread = (evaluations: Evaluation[]): Thread => ({
  version: THREAD_VERSION, id: 't1', title: 't', model: { provider: 'scripted', id: 'scripted', params: {} },
  context: { systemPrompt: '', tools: [], messages: [] }, runRefs: [], evaluations,
});
const rubric = { id: 'r', name: 'R', criteria: [{ id: 'c1', name: 'A' }, { id: 'c2', name: 'B' }] };

describe('Thread.evaluations', () => {
  it('accepts a verdict with a note and rubric scores for both runs', () => {
    const e: Evaluation = { id: 'e', runA: 'a', runB: 'b', verdict: 'a', note: 'n', rubric, runScores: [{ runId: 'a', scores: [{ criterionId: 'c1', score: 5 }] }, { runId: 'b', scores: [{ criterionId: 'c2', score: 1 }] }] };
    expect(validateThread(thread([e])).ok).toBe(true);
  });

  it('refuses a verdict outside a|b|tie|pass|fail and a score outside 1–5, naming the place', () => {
    const bad = validateThread(thread([{ id: 'e', runA: 'a', runB: 'b', verdict: 'leftBetter' as never }]));
    expect(bad.ok || bad.errors[0].pointer).toBe('/evaluations/0/verdict');
    const score = validateThread(thread([{ id: 'e', runA: 'a', runB: 'b', verdict: 'tie', rubric, runScores: [{ runId: 'a', scores: [{ criterionId: 'c1', score: 6 }] }] }]));
    expect(score.ok || score.errors[0].pointer).toBe('/evaluations/0/runScores/0/scores/0/score');
  });

  it('refuses scores for another run or an unknown criterion, and scores without a rubric', () => {
    const r = validateThread(thread([{ id: 'e', runA: 'a', runB: 'b', verdict: 'pass', rubric, runScores: [{ runId: 'x', scores: [{ criterionId: 'c9', score: 3 }] }] }]));
    expect(r.ok ? [] : r.errors.map((e) => e.pointer)).toEqual(['/evaluations/0/runScores/0/runId', '/evaluations/0/runScores/0/scores/0/criterionId']);
    const n = validateThread(thread([{ id: 'e', runA: 'a', runB: 'b', verdict: 'fail', runScores: [] }]));
    expect(n.ok ? [] : n.errors).toEqual([{ pointer: '/evaluations/0/runScores', message: 'scores need the rubric they were given with' }]);
  });
});
