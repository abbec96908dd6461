/**
 * promptfoo's assertions (`assert` entries of its test cases, and the `__expected` cells of its
 * CSV files) as Stepwise assertions (docs/architecture.md#evaluation). Spellings and semantics
 * as promptfoo 0.121 reads them: `type` with an optional `not-` prefix, `value`, `threshold`,
 * `weight`, `metric`, `transform`, `config`, `provider`, `rubricPrompt`. What Stepwise cannot
 * check the same way is refused by name, never dropped. Browser-safe.
 */
import type { Assertion } from './dataset';

/** Every base assertion type promptfoo 0.121 knows (its `BaseAssertionTypesSchema`), for reading `__expected` cells as it does. */
export const PROMPTFOO_ASSERTION_TYPES = [
  'agent-rubric', 'answer-relevance', 'bleu', 'classifier', 'contains', 'contains-all', 'contains-any', 'contains-html', 'contains-json', 'contains-sql', 'contains-xml',
  'context-faithfulness', 'context-recall', 'context-relevance', 'conversation-relevance', 'cost', 'equals', 'factuality', 'finish-reason', 'g-eval', 'gleu', 'guardrails',
  'icontains', 'icontains-all', 'icontains-any', 'is-html', 'is-json', 'is-refusal', 'is-sql', 'is-valid-function-call', 'is-valid-openai-function-call', 'is-valid-openai-tools-call',
  'is-xml', 'javascript', 'latency', 'levenshtein', 'llm-rubric', 'pi', 'meteor', 'model-graded-closedqa', 'model-graded-factuality', 'moderation', 'perplexity', 'perplexity-score',
  'python', 'regex', 'rouge-n', 'ruby', 'similar', 'similar:cosine', 'similar:dot', 'similar:euclidean', 'starts-with', 'tool-call-f1', 'skill-used', 'trajectory:goal-success',
  'trajectory:tool-args-match', 'trajectory:step-count', 'trajectory:tool-sequence', 'trajectory:tool-used', 'trace-error-spans', 'trace-span-count', 'trace-span-duration',
  'search-rubric', 'webhook', 'word-count',
] as const;

/** The promptfoo types Stepwise checks (with `not-` where listed). */
export const SUPPORTED_PROMPTFOO_TYPES = [
  'equals', 'contains', 'icontains', 'not-contains', 'not-icontains', 'contains-any', 'icontains-any', 'not-contains-any', 'not-icontains-any', 'contains-all', 'icontains-all',
  'regex', 'starts-with', 'is-json', 'llm-rubric', 'cost', 'latency',
] as const;

/** One promptfoo assertion read: the Stepwise assertions it is, a problem naming a key, or an unsupported type. */
export type PromptfooAssertionRead = { ok: true; assertions: Assertion[] } | { ok: false; problem: string } | { ok: false; unsupported: string };

const KNOWN_KEYS = new Set(['type', 'value', 'threshold', 'weight', 'metric', 'transform', 'contextTransform', 'config', 'provider', 'rubricPrompt']);

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function textValue(v: unknown, type: string): string | { problem: string } {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return { problem: `"value" of a ${type} assertion must be text${v === undefined ? ' (it has none)' : `, not ${Array.isArray(v) ? 'a list' : typeof v}`}` };
}

function listValue(v: unknown, type: string): string[] | { problem: string } {
  const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v;
  if (!Array.isArray(items) || !items.length || !items.every((x) => typeof x === 'string' || typeof x === 'number')) return { problem: `"value" of a ${type} assertion must be a list of texts (or comma-separated text)` };
  return items.map(String);
}

/**
 * Reads one promptfoo `assert` entry. Refused by name: `transform`/`contextTransform` (JavaScript
 * Stepwise does not run), `config`, `provider`, `rubricPrompt`, a `threshold` on a type that has
 * none in Stepwise, a `weight` of 0 or less (promptfoo then passes it whatever the output: it
 * would never fail here). A positive `weight` and a `metric` are read: without a test
 * `threshold` promptfoo passes a test only when every assertion passes, as Stepwise does.
 */
export function fromPromptfooAssertion(value: unknown): PromptfooAssertionRead {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: 'an assertion is an object with a "type"' };
  const a = value as Record<string, unknown>;
  for (const k of Object.keys(a)) if (!KNOWN_KEYS.has(k)) return { ok: false, problem: `unknown key "${k}" (promptfoo's are ${[...KNOWN_KEYS].join(', ')})` };
  if (typeof a.type !== 'string' || !a.type) return { ok: false, problem: '"type" must be an assertion type such as "contains"' };
  const type = a.type;
  for (const k of ['transform', 'contextTransform'] as const) if (a[k] !== undefined) return { ok: false, problem: `"${k}" runs JavaScript on the output, which Stepwise does not run` };
  for (const k of ['config', 'provider', 'rubricPrompt'] as const) {
    if (a[k] !== undefined && !(k === 'config' && a[k] && typeof a[k] === 'object' && !Object.keys(a[k]).length)) return { ok: false, problem: `"${k}" is not supported by Stepwise's ${type} check` };
  }
  if (a.weight !== undefined && (typeof a.weight !== 'number' || !(a.weight > 0))) {
    return { ok: false, problem: `"weight" ${JSON.stringify(a.weight)}: Stepwise reads a positive weight only (promptfoo passes a weight-0 assertion whatever the output)` };
  }
  if (a.metric !== undefined && typeof a.metric !== 'string') return { ok: false, problem: '"metric" must be text' };
  const threshold = a.threshold;
  if (threshold !== undefined && (typeof threshold !== 'number' || !Number.isFinite(threshold))) return { ok: false, problem: '"threshold" must be a number' };
  const noThreshold = (out: Assertion[]): PromptfooAssertionRead => (threshold === undefined ? { ok: true, assertions: out } : { ok: false, problem: `"threshold" has no meaning for a ${type} check in Stepwise` });
  const fail = (r: { problem: string }): PromptfooAssertionRead => ({ ok: false, problem: r.problem });
  const negated = type.startsWith('not-');
  const base = negated ? type.slice(4) : type;
  const ignoreCase = base.startsWith('i') && base.startsWith('icontains');
  switch (negated ? type : base) {
    case 'equals': {
      const v = textValue(a.value, type);
      return typeof v === 'string' ? noThreshold([{ type: 'equals', value: v }]) : fail(v);
    }
    case 'contains':
    case 'icontains':
    case 'not-contains':
    case 'not-icontains': {
      const v = textValue(a.value, type);
      if (typeof v !== 'string') return fail(v);
      return noThreshold([{ type: negated ? 'not_contains' : 'contains', value: v, ...(ignoreCase ? { ignoreCase: true } : {}) }]);
    }
    case 'contains-any':
    case 'icontains-any': {
      const v = listValue(a.value, type);
      if (!Array.isArray(v)) return fail(v);
      return noThreshold([{ type: 'regex', pattern: v.map(escapeRegex).join('|'), ...(ignoreCase ? { flags: 'i' } : {}) }]);
    }
    case 'not-contains-any':
    case 'not-icontains-any':
    case 'contains-all':
    case 'icontains-all': {
      const v = listValue(a.value, type);
      if (!Array.isArray(v)) return fail(v);
      return noThreshold(v.map((s) => ({ type: negated ? 'not_contains' : 'contains', value: s, ...(ignoreCase ? { ignoreCase: true } : {}) })) as Assertion[]);
    }
    case 'regex': {
      const v = textValue(a.value, type);
      return typeof v === 'string' ? noThreshold([{ type: 'regex', pattern: v }]) : fail(v);
    }
    case 'starts-with': {
      const v = textValue(a.value, type);
      return typeof v === 'string' ? noThreshold([{ type: 'regex', pattern: `^${escapeRegex(v)}` }]) : fail(v);
    }
    case 'is-json': {
      if (a.value !== undefined && (!a.value || typeof a.value !== 'object' || Array.isArray(a.value))) return { ok: false, problem: '"value" of an is-json assertion is a JSON Schema object (a schema in a file, file://…, is not read)' };
      return noThreshold([{ type: 'json_schema', schema: (a.value as Record<string, unknown> | undefined) ?? {} }]);
    }
    case 'llm-rubric': {
      const v = textValue(a.value, type);
      if (typeof v !== 'string' || !v.trim()) return { ok: false, problem: '"value" of an llm-rubric assertion is the rubric text' };
      if (threshold !== undefined && (threshold < 0 || threshold > 1)) return { ok: false, problem: '"threshold" of an llm-rubric assertion is a score from 0 to 1' };
      // promptfoo's 0–1 score onto the judge's 1–5 scale.
      return { ok: true, assertions: [{ type: 'judge', rubric: v, ...(threshold === undefined ? {} : { threshold: 1 + 4 * threshold }) }] };
    }
    case 'cost':
    case 'latency': {
      if (threshold === undefined || threshold < 0) return { ok: false, problem: `a ${type} assertion needs "threshold", the most it may be (${type === 'cost' ? 'USD' : 'ms'})` };
      return { ok: true, assertions: [{ type: type === 'cost' ? 'max_cost' : 'max_latency', value: threshold }] };
    }
    default:
      return { ok: false, unsupported: type };
  }
}

/** How promptfoo reads an `__expected` cell: `type:value`, `type(threshold):value`, `grade:`/`llm-rubric:`, `fn:`/`javascript:`/`python:`, else `equals` the whole text. */
export function promptfooAssertionOfCell(cell: string): Record<string, unknown> {
  if (/^(javascript:|fn:|eval:)/.test(cell) || (cell.startsWith('file://') && /\.(m?[jt]s|cjs)(:|$)/.test(cell))) return { type: 'javascript', value: cell };
  if (cell.startsWith('python:') || (cell.startsWith('file://') && (cell.endsWith('.py') || cell.includes('.py:')))) return { type: 'python', value: cell };
  if (cell.startsWith('grade:')) return { type: 'llm-rubric', value: cell.slice(6) };
  const m = /^(not-)?([a-z0-9:-]+?)(?:\((\d+(?:\.\d+)?)\))?(?::([\s\S]*))?$/.exec(cell);
  const type = m?.[2];
  if (!m || !type || !(PROMPTFOO_ASSERTION_TYPES as readonly string[]).includes(type)) return { type: 'equals', value: cell };
  const out: Record<string, unknown> = { type: `${m[1] ?? ''}${type}` };
  const value = m[4];
  if (/^(i?contains-(all|any))$/.test(type)) {
    if (value !== undefined) out.value = splitCommaList(value);
  } else if (value !== undefined) out.value = type === 'is-json' || type === 'contains-json' ? value : value.trim();
  if (m[3] !== undefined) out.threshold = Number(m[3]);
  // promptfoo gives these their default threshold when the cell names none.
  else if (['cost', 'latency'].includes(type) && value !== undefined && value.trim() !== '' && Number.isFinite(Number(value))) out.threshold = Number(value);
  if (type === 'is-json' && (value === undefined || value.trim() === '')) delete out.value;
  else if (type === 'is-json' && value !== undefined) {
    try {
      out.value = JSON.parse(value);
    } catch {
      /* the check names it */
    }
  }
  return out;
}

/** promptfoo's comma-separated list of a contains-any/all cell: quoted items may hold commas (`"a, b"`, `""` or `\"` for a quote). */
export function splitCommaList(value: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && (/\s/.test(value[i]!) || value[i] === ',')) i++;
    if (i >= value.length) break;
    if (value[i] === '"') {
      let field = '';
      i++;
      while (i < value.length) {
        if ((value[i] === '\\' && (value[i + 1] === '"' || value[i + 1] === '\\')) || (value[i] === '"' && value[i + 1] === '"')) {
          field += value[i + 1];
          i += 2;
        } else if (value[i] === '"') {
          i++;
          break;
        } else field += value[i++];
      }
      out.push(field);
    } else {
      let j = i;
      while (j < value.length && value[j] !== ',') j++;
      out.push(value.slice(i, j).trim());
      i = j;
    }
  }
  return out;
}
