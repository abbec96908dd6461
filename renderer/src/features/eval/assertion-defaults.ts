/** The assertion types the dataset editor offers, with their labels and a fresh assertion of each. */
import type { Assertion, AssertionType } from '../../../../shared/eval/dataset';

/** Label of each type, in the order the type menu lists them. */
export const ASSERTION_LABELS: Record<AssertionType, string> = {
  contains: 'final text contains',
  not_contains: 'final text does not contain',
  equals: 'final text equals',
  regex: 'final text matches regex',
  json_schema: 'JSON Schema (final text or tool arguments)',
  tool_called: 'tool called',
  tool_not_called: 'tool not called',
  turns: 'number of turns',
  max_tokens: 'at most tokens',
  max_cost: 'at most cost (USD)',
  max_latency: 'at most latency (ms)',
  judge: 'LLM judge with a rubric',
};

/** A new assertion of `type` with empty or neutral values. */
export function newAssertion(type: AssertionType): Assertion {
  switch (type) {
    case 'equals':
    case 'contains':
    case 'not_contains':
      return { type, value: '' };
    case 'regex':
      return { type, pattern: '' };
    case 'json_schema':
      return { type, schema: { type: 'object' } };
    case 'tool_called':
    case 'tool_not_called':
      return { type, tool: '' };
    case 'turns':
      return { type, max: 1 };
    case 'max_tokens':
    case 'max_cost':
    case 'max_latency':
      return { type, value: 0 };
    case 'judge':
      return { type, rubric: 'The answer is correct and to the point.' };
  }
}
