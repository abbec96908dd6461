import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelIds } from './provider-check';

describe('modelIds', () => {
  it('reads the ids of an OpenAI- or Anthropic-style list, once each, skipping entries without one', () => {
    expect(modelIds([{ id: 'a', object: 'model' }, { id: 'b' }, { id: 'a' }, { name: 'x' }, null, 3, { id: '' }])).toEqual(['a', 'b']);
  });
  it('names what is wrong with an answer that is not a list', () => {
    expect(() => modelIds({ models: [] })).toThrow('the answer to GET /models is not a model list');
    expect(() => modelIds(undefined)).toThrow('not a model list');
  });
  it('any JSON: a list of distinct non-empty strings, or the one error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        let ids: string[];
        try {
          ids = modelIds(v);
        } catch (err) {
          expect(Array.isArray(v)).toBe(false);
          expect((err as Error).message).toMatch(/not a model list/);
          return;
        }
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of ids) expect(typeof id === 'string' && id.length > 0).toBe(true);
      }),
    );
  });
});
