import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkAssertion, matchesPartially } from './assertions';
import type { CaseOutcome } from './outcome';

const outcome = (over: Partial<CaseOutcome> = {}): CaseOutcome => ({
  status: 'completed',
  finalText: 'The answer is 4.',
  toolCalls: [{ name: 'calc', arguments: { a: 2, b: 2, op: 'add' }, status: 'completed' }],
  turns: 2,
  inputTokens: 100,
  outputTokens: 20,
  latencyMs: 1500,
  ...over,
});

describe('assertions', () => {
  it('equals (trimmed, optionally ignoring case; the case\'s expected value when empty), contains, not_contains, regex', () => {
    const o = outcome({ finalText: '  Paris \n' });
    expect(checkAssertion({ type: 'equals', value: 'Paris' }, o).status).toBe('pass');
    expect(checkAssertion({ type: 'equals', value: 'paris' }, o)).toEqual({ type: 'equals', status: 'fail', reason: 'expected "paris", got "  Paris \\n"' });
    expect(checkAssertion({ type: 'equals', value: 'paris', ignoreCase: true }, o).status).toBe('pass');
    expect(checkAssertion({ type: 'equals', value: '' }, o, 'Paris').status).toBe('pass');
    // No value at all: the case's expected value, and an error when the case has none.
    expect(checkAssertion({ type: 'equals' }, o, 'Paris').status).toBe('pass');
    expect(checkAssertion({ type: 'contains' }, o, 'Lyon')).toEqual({ type: 'contains', status: 'fail', reason: '"Lyon" not found in "  Paris \\n"' });
    expect(checkAssertion({ type: 'not_contains' }, o)).toEqual({ type: 'not_contains', status: 'error', reason: 'no value to compare with: the assertion has no "value" and the case no "expected"' });
    expect(checkAssertion({ type: 'contains', value: 'ari' }, o).status).toBe('pass');
    expect(checkAssertion({ type: 'contains', value: 'PAR' }, o).status).toBe('fail');
    expect(checkAssertion({ type: 'contains', value: 'PAR', ignoreCase: true }, o).status).toBe('pass');
    expect(checkAssertion({ type: 'not_contains', value: 'London' }, o).status).toBe('pass');
    expect(checkAssertion({ type: 'not_contains', value: 'Paris' }, o).status).toBe('fail');
    expect(checkAssertion({ type: 'regex', pattern: '^\\s*P\\w+' }, o).status).toBe('pass');
    expect(checkAssertion({ type: 'regex', pattern: '^london$', flags: 'i' }, o).status).toBe('fail');
    expect(checkAssertion({ type: 'regex', pattern: '(' }, o).status).toBe('error');
  });

  it('json_schema on the final text and on a tool call\'s arguments, naming the failing path', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    expect(checkAssertion({ type: 'json_schema', schema }, outcome({ finalText: '{"city":"Lyon"}' })).status).toBe('pass');
    expect(checkAssertion({ type: 'json_schema', schema }, outcome({ finalText: '{"town":"Lyon"}' }))).toEqual({
      type: 'json_schema',
      status: 'fail',
      reason: 'the final text do not match the schema: /city is required',
    });
    expect(checkAssertion({ type: 'json_schema', schema }, outcome({ finalText: 'Lyon' })).reason).toBe('the final text is not JSON: "Lyon"');
    const argSchema = { type: 'object', properties: { a: { type: 'number' } } };
    expect(checkAssertion({ type: 'json_schema', schema: argSchema, tool: 'calc' }, outcome()).status).toBe('pass');
    expect(checkAssertion({ type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } } }, tool: 'calc' }, outcome()).reason).toBe("calc's arguments do not match the schema: /a must be string");
    expect(checkAssertion({ type: 'json_schema', schema: argSchema, tool: 'search' }, outcome()).reason).toBe('tool search was not called');
  });

  it('tool_called with partially matching arguments, tool_not_called', () => {
    expect(checkAssertion({ type: 'tool_called', tool: 'calc' }, outcome()).status).toBe('pass');
    expect(checkAssertion({ type: 'tool_called', tool: 'calc', arguments: { op: 'add' } }, outcome()).status).toBe('pass');
    expect(checkAssertion({ type: 'tool_called', tool: 'calc', arguments: { op: 'mul' } }, outcome()).reason).toBe(
      'calc was called, never with arguments matching {"op":"mul"} (got {"a":2,"b":2,"op":"add"})',
    );
    expect(checkAssertion({ type: 'tool_called', tool: 'search' }, outcome()).reason).toBe('search was not called (called: calc)');
    expect(checkAssertion({ type: 'tool_not_called', tool: 'search' }, outcome()).status).toBe('pass');
    expect(checkAssertion({ type: 'tool_not_called', tool: 'calc' }, outcome()).reason).toBe('calc was called once');
  });

  it('turns, tokens, cost and latency limits; an unknown cost is an error, not a pass', () => {
    expect(checkAssertion({ type: 'turns', max: 2 }, outcome()).status).toBe('pass');
    expect(checkAssertion({ type: 'turns', max: 1 }, outcome()).reason).toBe('2 turns, expected at most 1');
    expect(checkAssertion({ type: 'turns', min: 3, max: 5 }, outcome()).reason).toBe('2 turns, expected at least 3 and at most 5');
    expect(checkAssertion({ type: 'max_tokens', value: 120 }, outcome()).status).toBe('pass');
    expect(checkAssertion({ type: 'max_tokens', value: 119 }, outcome()).status).toBe('fail');
    expect(checkAssertion({ type: 'max_cost', value: 0.01 }, outcome())).toMatchObject({ status: 'error' });
    expect(checkAssertion({ type: 'max_cost', value: 0.01 }, outcome({ costUsd: 0.002 })).status).toBe('pass');
    expect(checkAssertion({ type: 'max_cost', value: 0.001 }, outcome({ costUsd: 0.002 })).status).toBe('fail');
    expect(checkAssertion({ type: 'max_latency', value: 1500 }, outcome()).status).toBe('pass');
    expect(checkAssertion({ type: 'max_latency', value: 1000 }, outcome()).reason).toBe('1500 ms, more than 1000 ms');
  });

  it('a value always matches itself partially, and a matching subset of an object', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => matchesPartially(v, v)));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const keys = Object.keys(obj).filter((_, i) => i % 2 === 0);
        return matchesPartially(obj, Object.fromEntries(keys.map((k) => [k, obj[k]])));
      }),
    );
    expect(matchesPartially({ a: [1, 2] }, { a: [1] })).toBe(false);
  });
});
