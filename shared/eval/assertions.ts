/**
 * Checking a case's run against its assertions (dataset.ts). Each check gives `pass`, `fail`
 * (with the reason a person reads in the results grid) or `error` (the check itself could not
 * be made: a cost no provider reported, a final text that is not JSON). `judge` assertions are
 * scored by a model in the host (main/core/eval/judge.ts); this module only checks the rest.
 * Browser-safe.
 */
import type { Assertion } from './dataset';
import type { CaseOutcome } from './outcome';
import { validateArguments } from '../json/json-schema';

/** The result of one assertion on one case run. */
export interface AssertionResult {
  type: Assertion['type'];
  status: 'pass' | 'fail' | 'error';
  /** Why it failed or could not be checked, or what passed (short, for the grid). */
  reason: string;
  /** A judge's score on 1–5. */
  score?: number;
}

const clip = (s: string, n = 80): string => (s.length > n ? `${JSON.stringify(s.slice(0, n))}…` : JSON.stringify(s));
const result = (a: Assertion, ok: boolean, passReason: string, failReason: string): AssertionResult => ({ type: a.type, status: ok ? 'pass' : 'fail', reason: ok ? passReason : failReason });

/** Whether `actual` contains everything in `expected`: equal scalars, objects by key (extra keys allowed), arrays element by element. */
export function matchesPartially(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return Object.is(actual, expected) || actual === expected;
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => matchesPartially(actual[i], e));
  if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
  return Object.entries(expected as Record<string, unknown>).every(([k, v]) => matchesPartially((actual as Record<string, unknown>)[k], v));
}

/** An `equals`/`contains`/`not_contains` with no value, for a case with no expected value: nothing to compare with. */
function noValue(type: Assertion['type']): AssertionResult {
  return { type, status: 'error', reason: 'no value to compare with: the assertion has no "value" and the case no "expected"' };
}

/** Checks one non-judge assertion; `expected` is the case's expected value (used by `equals`/`contains` given an empty value). */
export function checkAssertion(a: Assertion, o: CaseOutcome, expected?: string): AssertionResult {
  const text = o.finalText;
  switch (a.type) {
    case 'equals': {
      if (a.value === undefined && expected === undefined) return noValue(a.type);
      const want = !a.value && expected !== undefined ? expected : (a.value ?? '');
      const norm = (s: string) => {
        let t = a.trim === false ? s : s.trim();
        if (a.ignoreCase) t = t.toLowerCase();
        return t;
      };
      return result(a, norm(text) === norm(want), `equals ${clip(want)}`, `expected ${clip(want)}, got ${clip(text)}`);
    }
    case 'contains':
    case 'not_contains': {
      if (a.value === undefined && expected === undefined) return noValue(a.type);
      const want = !a.value && expected !== undefined ? expected : (a.value ?? '');
      const has = a.ignoreCase ? text.toLowerCase().includes(want.toLowerCase()) : text.includes(want);
      return a.type === 'contains'
        ? result(a, has, `contains ${clip(want)}`, `${clip(want)} not found in ${clip(text)}`)
        : result(a, !has, `does not contain ${clip(want)}`, `contains ${clip(want)}`);
    }
    case 'regex': {
      let re: RegExp;
      try {
        re = new RegExp(a.pattern, a.flags);
      } catch (err) {
        return { type: a.type, status: 'error', reason: `not a valid regular expression: ${(err as Error).message}` };
      }
      return result(a, re.test(text), `matches /${a.pattern}/${a.flags ?? ''}`, `/${a.pattern}/${a.flags ?? ''} does not match ${clip(text)}`);
    }
    case 'json_schema': {
      let value: unknown;
      if (a.tool) {
        const call = o.toolCalls.find((c) => c.name === a.tool);
        if (!call) return { type: a.type, status: 'fail', reason: `tool ${a.tool} was not called` };
        value = call.arguments;
      } else {
        try {
          value = JSON.parse(text);
        } catch {
          return { type: a.type, status: 'fail', reason: `the final text is not JSON: ${clip(text)}` };
        }
      }
      const problems = validateArguments(a.schema, value);
      const what = a.tool ? `${a.tool}'s arguments` : 'the final text';
      return problems ? { type: a.type, status: 'fail', reason: `${what} do not match the schema: ${problems.slice(0, 3).join('; ')}` } : { type: a.type, status: 'pass', reason: `${what} match the schema` };
    }
    case 'tool_called': {
      const calls = o.toolCalls.filter((c) => c.name === a.tool);
      if (!calls.length) return { type: a.type, status: 'fail', reason: `${a.tool} was not called${o.toolCalls.length ? ` (called: ${[...new Set(o.toolCalls.map((c) => c.name))].join(', ')})` : ''}` };
      if (a.arguments === undefined || calls.some((c) => matchesPartially(c.arguments, a.arguments))) return { type: a.type, status: 'pass', reason: `${a.tool} called` };
      return { type: a.type, status: 'fail', reason: `${a.tool} was called, never with arguments matching ${JSON.stringify(a.arguments)} (got ${JSON.stringify(calls[0].arguments)})` };
    }
    case 'tool_not_called': {
      const n = o.toolCalls.filter((c) => c.name === a.tool).length;
      return result(a, n === 0, `${a.tool} not called`, `${a.tool} was called ${n === 1 ? 'once' : `${n} times`}`);
    }
    case 'turns': {
      const okMax = a.max === undefined || o.turns <= a.max;
      const okMin = a.min === undefined || o.turns >= a.min;
      const bound = [a.min !== undefined ? `at least ${a.min}` : '', a.max !== undefined ? `at most ${a.max}` : ''].filter(Boolean).join(' and ');
      return result(a, okMax && okMin, `${o.turns} turns`, `${o.turns} turns, expected ${bound}`);
    }
    case 'max_tokens': {
      const total = o.inputTokens + o.outputTokens;
      return result(a, total <= a.value, `${total} tokens`, `${total} tokens, more than ${a.value}`);
    }
    case 'max_cost':
      if (o.costUsd === undefined) return { type: a.type, status: 'error', reason: 'no cost known for this run (the model has no price)' };
      return result(a, o.costUsd <= a.value, `$${o.costUsd.toFixed(6)}`, `$${o.costUsd.toFixed(6)}, more than $${a.value}`);
    case 'max_latency':
      if (o.latencyMs === undefined) return { type: a.type, status: 'error', reason: 'the run has no end time' };
      return result(a, o.latencyMs <= a.value, `${Math.round(o.latencyMs)} ms`, `${Math.round(o.latencyMs)} ms, more than ${a.value} ms`);
    case 'judge':
      return { type: a.type, status: 'error', reason: 'a judge is scored by the host, not here' };
  }
}
