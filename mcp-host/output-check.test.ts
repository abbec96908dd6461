import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { outputProblems } from './output-check';

const schema = { type: 'object', properties: { temperature: { type: 'number' }, conditions: { type: 'string' } }, required: ['temperature', 'conditions'] };

describe('outputProblems', () => {
  it('accepts conforming structuredContent, and anything when there is no schema or the result is an error', () => {
    expect(outputProblems(schema, { structuredContent: { temperature: 3, conditions: 'Sunny' } })).toEqual([]);
    expect(outputProblems(undefined, { structuredContent: 5 as never })).toEqual([]);
    expect(outputProblems(schema, { isError: true })).toEqual([]);
  });

  it('names each failing value by its pointer under structuredContent', () => {
    expect(outputProblems(schema, { structuredContent: { temperature: 'hot' } })).toEqual(['structuredContent/conditions is required', 'structuredContent/temperature must be number']);
    expect(outputProblems(schema, {})).toEqual(['the tool declares an outputSchema but its result has no structuredContent']);
  });

  it('never throws, whatever the content', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => Array.isArray(outputProblems(schema, { structuredContent: v as Record<string, unknown> }))));
  });
});
