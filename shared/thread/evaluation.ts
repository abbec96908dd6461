/**
 * Manual evaluations of runs, kept in the thread (`Thread.evaluations`): a person compares two
 * runs (or judges one) and records a verdict, a note, and optionally a rubric's criteria scored
 * 1–5 for each run. Mirrors LLM Space's `evaluations` / `evaluationRubrics` (its `leftBetter` /
 * `rightBetter` are `a` / `b` here), so its files import with nothing lost. Times are epoch ms.
 */
import { Type, type Static } from '@sinclair/typebox';
import { literals } from '../protocol/contract/define';

/** One criterion of a rubric. */
export const RubricCriterionSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Type.String(),
  description: Type.Optional(Type.String()),
});

/** A reusable rubric: 2–6 criteria, each scored 1–5 (higher is better). */
export const RubricSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Type.String(),
  criteria: Type.Array(RubricCriterionSchema, { minItems: 2, maxItems: 6 }),
  /** Bumped when the criteria change; an evaluation keeps the revision it was made with. */
  revision: Type.Optional(Type.Integer({ minimum: 1 })),
  createdAt: Type.Optional(Type.Number()),
  updatedAt: Type.Optional(Type.Number()),
});
export type Rubric = Static<typeof RubricSchema>;

/** a = run `runA` is better, b = `runB` is better, tie; pass / fail judge the pair as acceptable or not. */
export const VerdictSchema = literals('a', 'b', 'tie', 'pass', 'fail');
export type Verdict = Static<typeof VerdictSchema>;

/** The criterion scores one run got. */
export const RunScoresSchema = Type.Object({
  runId: Type.String({ minLength: 1 }),
  scores: Type.Array(Type.Object({ criterionId: Type.String({ minLength: 1 }), score: Type.Integer({ minimum: 1, maximum: 5 }) })),
});
export type RunScores = Static<typeof RunScoresSchema>;

/** One evaluation: two run ids (as in `runRefs`), a verdict, an optional note and rubric scores. */
export const EvaluationSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  runA: Type.String({ minLength: 1 }),
  runB: Type.String({ minLength: 1 }),
  verdict: VerdictSchema,
  note: Type.Optional(Type.String()),
  /** The rubric as it was when the scores were given (a copy, not a reference). */
  rubric: Type.Optional(RubricSchema),
  /** One entry per run scored, each criterion of `rubric` scored 1–5. */
  runScores: Type.Optional(Type.Array(RunScoresSchema, { maxItems: 2 })),
  createdAt: Type.Optional(Type.Number()),
  updatedAt: Type.Optional(Type.Number()),
});
export type Evaluation = Static<typeof EvaluationSchema>;

/**
 * Problems an evaluation has beyond its schema: scores for a run that is neither `runA` nor
 * `runB`, or for a criterion its rubric does not have, or scores without a rubric. `at` is the
 * evaluation's JSON pointer; each problem names the pointer of the offending field.
 */
export function evaluationProblems(e: Evaluation, at: string): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = [];
  if (!e.runScores) return out;
  if (!e.rubric) return [{ pointer: `${at}/runScores`, message: 'scores need the rubric they were given with' }];
  const criteria = new Set(e.rubric.criteria.map((c) => c.id));
  e.runScores.forEach((r, i) => {
    if (r.runId !== e.runA && r.runId !== e.runB) out.push({ pointer: `${at}/runScores/${i}/runId`, message: `run ${JSON.stringify(r.runId)} is neither runA nor runB` });
    r.scores.forEach((s, j) => {
      if (!criteria.has(s.criterionId)) out.push({ pointer: `${at}/runScores/${i}/scores/${j}/criterionId`, message: `the rubric has no criterion ${JSON.stringify(s.criterionId)}` });
    });
  });
  return out;
}
