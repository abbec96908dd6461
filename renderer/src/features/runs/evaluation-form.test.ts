import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { EvaluationSchema, evaluationProblems } from '../../../../shared/thread/evaluation';
import { draftOf, emptyEvaluationDraft, findEvaluation, readEvaluation, scoreDelta, upsertEvaluation } from './evaluation-form';

let n = 0;
const opts = { now: 1000, newId: () => `id${++n}` };

describe('verdict and rubric form', () => {
  it('reads a verdict, note and scored rubric into an evaluation that checks, and back', () => {
    const d = { verdict: 'b' as const, note: 'B cites its source.', criteria: [{ name: 'Correct', scoreA: 2, scoreB: 5 }, { name: 'Concise', scoreA: 4 }] };
    const r = readEvaluation(d, 'runA', 'runB', opts);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const e = r.evaluation;
    expect(Value.Check(EvaluationSchema, e)).toBe(true);
    expect(evaluationProblems(e, '/evaluations/0')).toEqual([]);
    expect(e.rubric?.criteria.map((c) => c.name)).toEqual(['Correct', 'Concise']);
    expect(e.runScores).toEqual([
      { runId: 'runA', scores: [{ criterionId: 'c1', score: 2 }, { criterionId: 'c2', score: 4 }] },
      { runId: 'runB', scores: [{ criterionId: 'c1', score: 5 }] },
    ]);
    expect(draftOf(e)).toEqual(d);
    expect(scoreDelta(d.criteria[0])).toBe(3);
    expect(scoreDelta(d.criteria[1])).toBeUndefined();
  });

  it('names what is missing or out of range', () => {
    const r = readEvaluation({ note: '', criteria: [{ name: 'x', scoreA: 7 }] }, 'a', 'b', opts);
    expect(r).toEqual({ ok: false, errors: ['Pick a verdict.', 'A rubric has 2 to 6 criteria, not 1.', 'Criterion 1: a score is a whole number from 1 to 5, not 7.'] });
    const twice = readEvaluation({ verdict: 'tie', note: '', criteria: [{ name: 'x' }, { name: ' x ' }, { name: '' }] }, 'a', 'b', opts);
    expect(twice).toEqual({ ok: false, errors: ['Criterion 2: "x" is named twice.', 'Criterion 3 has no name.'] });
    expect(readEvaluation({ ...emptyEvaluationDraft(), verdict: 'pass' }, 'a', 'b', opts)).toEqual({ ok: true, evaluation: { id: expect.any(String), runA: 'a', runB: 'b', verdict: 'pass', createdAt: 1000, updatedAt: 1000 } });
  });

  it('replaces the pair’s evaluation when saved again, keeping its id and creation time', () => {
    const first = readEvaluation({ verdict: 'a', note: '', criteria: [] }, 'a', 'b', opts);
    if (!first.ok) throw new Error('first');
    const list = upsertEvaluation(undefined, first.evaluation);
    const again = readEvaluation({ verdict: 'fail', note: 'both wrong', criteria: [] }, 'a', 'b', { ...opts, now: 2000, prev: findEvaluation(list, 'a', 'b') });
    if (!again.ok) throw new Error('again');
    const next = upsertEvaluation(list, again.evaluation);
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ id: first.evaluation.id, verdict: 'fail', createdAt: 1000, updatedAt: 2000 });
    expect(findEvaluation(next, 'b', 'a')).toBeUndefined();
  });
});
