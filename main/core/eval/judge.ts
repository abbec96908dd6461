/**
 * The LLM judge of a `judge` assertion: a one-step thread asking a model to score a case's
 * output against a rubric on 1–5 and say why, run in its own runner process like any run (any
 * configured provider; the scripted one gives offline tests). The judge's thread is kept next
 * to the case's, so its request and answer can be opened like any run. It is a literal thread
 * (`settings.literal`): its text is never rendered as a template.
 */
import { randomUUID } from 'node:crypto';
import type { ModelConfig } from '../../../shared/thread/model-config';
import type { Thread } from '../../../shared/thread/schema';
import type { Assertion } from '../../../shared/eval/dataset';
import type { AssertionResult } from '../../../shared/eval/assertions';
import type { CaseOutcome } from '../../../shared/eval/outcome';

type JudgeAssertion = Extract<Assertion, { type: 'judge' }>;

/** Default lowest passing score. */
export const DEFAULT_JUDGE_THRESHOLD = 3;

const SYSTEM = [
  'You grade the output of an AI assistant against a rubric.',
  'Score it from 1 (fails the rubric) to 5 (meets it fully).',
  'Answer with one JSON object and nothing else: {"score": <1-5>, "reason": "<one sentence>"}.',
].join('\n');

/** The judge's model: the assertion's, else the case's own. */
export function judgeModel(a: JudgeAssertion, caseModel: ModelConfig): ModelConfig {
  if (a.model === undefined) return { ...caseModel, params: { ...caseModel.params } };
  if (typeof a.model !== 'string') return a.model;
  const slash = a.model.indexOf('/');
  return { provider: slash > 0 ? a.model.slice(0, slash) : a.model, id: slash > 0 ? a.model.slice(slash + 1) : '', params: {} };
}

/** The judge's thread for one case output. */
export function judgeThread(a: JudgeAssertion, caseModel: ModelConfig, o: CaseOutcome, vars: Record<string, string>, expected: string | undefined, title: string): Thread {
  const parts = [`RUBRIC:\n${a.rubric}`];
  if (Object.keys(vars).length) parts.push(`INPUT VARIABLES:\n${JSON.stringify(vars, null, 2)}`);
  if (expected !== undefined) parts.push(`EXPECTED:\n${expected}`);
  const calls = o.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`);
  if (calls.length) parts.push(`TOOL CALLS MADE:\n${calls.join('\n')}`);
  parts.push(`OUTPUT:\n${o.finalText}`);
  return {
    version: 1,
    id: randomUUID(),
    title,
    model: judgeModel(a, caseModel),
    context: { systemPrompt: SYSTEM, tools: [], messages: [{ id: 'judge-input', role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }] }] },
    // The output, variables and expected value are the case's text, not a template of the
    // user's: the judge must see them byte for byte (`{{ x }}` and `{% if %}` included).
    settings: { literal: true },
    runRefs: [],
  };
}

/**
 * Reads the judge's answer: the first JSON object with a numeric `score` (and a `reason`), or
 * failing that a "score: N" in the text. The score must be 1–5.
 */
export function readVerdict(text: string): { score: number; reason: string } | { problem: string } {
  // At most 20 × 20 spans are tried, so a long answer full of braces costs bounded time.
  for (let i = text.indexOf('{'), a = 0; i >= 0 && a < 20; i = text.indexOf('{', i + 1), a++) {
    for (let j = text.lastIndexOf('}'), b = 0; j > i && b < 20; j = text.lastIndexOf('}', j - 1), b++) {
      try {
        const v = JSON.parse(text.slice(i, j + 1)) as { score?: unknown; reason?: unknown };
        if (v && typeof v === 'object' && typeof v.score === 'number') return checked(v.score, typeof v.reason === 'string' ? v.reason : '');
      } catch {
        /* try a shorter span */
      }
    }
  }
  const m = /score\W{0,3}(\d+(?:\.\d+)?)/i.exec(text);
  if (m) return checked(Number(m[1]), text.trim().slice(0, 200));
  return { problem: `the judge's answer has no score: ${JSON.stringify(text.slice(0, 120))}` };
}

function checked(score: number, reason: string): { score: number; reason: string } | { problem: string } {
  if (!(score >= 1 && score <= 5)) return { problem: `the judge gave a score of ${score}, outside 1–5` };
  return { score, reason };
}

/** The assertion result from the judge's run: its final text (or why it could not run). */
export function judgeResult(a: JudgeAssertion, judged: { text: string } | { error: string }): AssertionResult {
  if ('error' in judged) return { type: 'judge', status: 'error', reason: `the judge could not run: ${judged.error}` };
  const v = readVerdict(judged.text);
  if ('problem' in v) return { type: 'judge', status: 'error', reason: v.problem };
  const threshold = a.threshold ?? DEFAULT_JUDGE_THRESHOLD;
  return { type: 'judge', status: v.score >= threshold ? 'pass' : 'fail', score: v.score, reason: `${v.score}/5${v.score >= threshold ? '' : ` (below ${threshold})`}: ${v.reason}` };
}
