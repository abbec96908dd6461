/**
 * The verdict and rubric form of Compare runs (VerdictForm.tsx) and the thread's evaluations
 * (shared/thread/evaluation.ts): a form read into an Evaluation, an Evaluation read back into
 * a form, and the B−A delta per criterion.
 */
import type { Evaluation, Verdict } from '../../../../shared/thread/evaluation';

/** One criterion row as edited: its name and each run's 1–5 score (absent: not scored). */
export interface CriterionDraft {
  name: string;
  scoreA?: number;
  scoreB?: number;
}

/** The form's state. */
export interface EvaluationDraft {
  verdict?: Verdict;
  note: string;
  criteria: CriterionDraft[];
}

/** Rubric sizes the form takes (as LLM Space's rubrics): none, or 2 to 6 criteria. */
export const MIN_CRITERIA = 2;
export const MAX_CRITERIA = 6;

/** An empty form. */
export function emptyEvaluationDraft(): EvaluationDraft {
  return { note: '', criteria: [] };
}

/** B's score minus A's, when both runs were scored on the criterion. */
export function scoreDelta(c: CriterionDraft): number | undefined {
  return c.scoreA !== undefined && c.scoreB !== undefined ? c.scoreB - c.scoreA : undefined;
}

/** The thread's evaluation of the pair (runA, runB), the latest when there are several. */
export function findEvaluation(list: readonly Evaluation[] | undefined, runA: string, runB: string): Evaluation | undefined {
  return [...(list ?? [])].reverse().find((e) => e.runA === runA && e.runB === runB);
}

/** An evaluation read back into the form. */
export function draftOf(e: Evaluation): EvaluationDraft {
  const score = (runId: string, criterionId: string) => e.runScores?.find((r) => r.runId === runId)?.scores.find((s) => s.criterionId === criterionId)?.score;
  return {
    verdict: e.verdict,
    note: e.note ?? '',
    criteria: (e.rubric?.criteria ?? []).map((c) => {
      const d: CriterionDraft = { name: c.name };
      const a = score(e.runA, c.id);
      const b = score(e.runB, c.id);
      if (a !== undefined) d.scoreA = a;
      if (b !== undefined) d.scoreB = b;
      return d;
    }),
  };
}

/**
 * The form as an Evaluation of (runA, runB), or what is wrong: no verdict, a rubric of 1 or
 * more than 6 criteria, a criterion without a name or named twice, a score outside 1–5.
 * `prev` keeps its id, rubric id and creation time; `now` is epoch ms; `newId` makes ids.
 */
export function readEvaluation(
  d: EvaluationDraft,
  runA: string,
  runB: string,
  opts: { prev?: Evaluation; now: number; newId(): string },
): { ok: true; evaluation: Evaluation } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  if (!d.verdict) errors.push('Pick a verdict.');
  const n = d.criteria.length;
  if (n > 0 && (n < MIN_CRITERIA || n > MAX_CRITERIA)) errors.push(`A rubric has ${MIN_CRITERIA} to ${MAX_CRITERIA} criteria, not ${n}.`);
  const names = new Set<string>();
  d.criteria.forEach((c, i) => {
    const name = c.name.trim();
    if (!name) errors.push(`Criterion ${i + 1} has no name.`);
    else if (names.has(name)) errors.push(`Criterion ${i + 1}: "${name}" is named twice.`);
    names.add(name);
    for (const s of [c.scoreA, c.scoreB]) if (s !== undefined && !(Number.isInteger(s) && s >= 1 && s <= 5)) errors.push(`Criterion ${i + 1}: a score is a whole number from 1 to 5, not ${s}.`);
  });
  if (errors.length) return { ok: false, errors };
  const e: Evaluation = { id: opts.prev?.id ?? opts.newId(), runA, runB, verdict: d.verdict!, createdAt: opts.prev?.createdAt ?? opts.now, updatedAt: opts.now };
  if (d.note.trim()) e.note = d.note;
  if (n) {
    const criteria = d.criteria.map((c, i) => ({ id: `c${i + 1}`, name: c.name.trim() }));
    e.rubric = { id: opts.prev?.rubric?.id ?? opts.newId(), name: 'Rubric', criteria };
    const scores = (pick: 'scoreA' | 'scoreB') => d.criteria.flatMap((c, i) => (c[pick] !== undefined ? [{ criterionId: criteria[i].id, score: c[pick]! }] : []));
    e.runScores = [
      { runId: runA, scores: scores('scoreA') },
      { runId: runB, scores: scores('scoreB') },
    ].filter((r) => r.scores.length);
    if (!e.runScores.length) delete e.runScores;
  }
  return { ok: true, evaluation: e };
}

/** `list` with `e` in place of the evaluation with its id (or added at the end). */
export function upsertEvaluation(list: readonly Evaluation[] | undefined, e: Evaluation): Evaluation[] {
  const all = [...(list ?? [])];
  const i = all.findIndex((x) => x.id === e.id);
  if (i >= 0) all[i] = e;
  else all.push(e);
  return all;
}
