import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import fc from 'fast-check';
import { checkAgainstSchema, schemaProblems, validateJson } from './schema-check';

const sumSchema = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false };

describe('tool-argument schema check (CSP-safe, no code generation)', () => {
  it('names what is wrong and where', () => {
    expect(checkAgainstSchema(sumSchema, { a: 2, b: 3 })).toBeNull();
    expect(checkAgainstSchema(sumSchema, { a: 'two' })).toBe('(arguments) is missing required property “b”; /a must be number (got string)');
    expect(checkAgainstSchema(sumSchema, { a: 1, b: 2, c: 3 })).toContain('unknown property “c”');
  });

  it('follows local $ref, enum, array items and anyOf', () => {
    const schema = {
      $defs: { unit: { enum: ['c', 'f'] } },
      type: 'object',
      properties: { unit: { $ref: '#/$defs/unit' }, days: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 3 }, q: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    };
    expect(validateJson(schema, { unit: 'c', days: [1, 2], q: null })).toEqual([]);
    expect(validateJson(schema, { unit: 'k', days: [0, 1.5, 2, 3], q: 1 })).toEqual([
      '/unit must be one of ["c","f"]',
      '/days must have at most 3 items',
      '/days/0 must be ≥ 1',
      '/days/1 must be integer (got number)',
      '/q must match one of the allowed shapes (anyOf)',
    ]);
  });

  it('agrees with ajv on valid/invalid for generated values of a typical tool schema', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, count: { type: 'integer', minimum: 0, maximum: 10 }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['name'],
    };
    const ajv = new Ajv({ strict: false }).compile(schema);
    fc.assert(
      fc.property(fc.record({ name: fc.oneof(fc.string(), fc.integer()), count: fc.oneof(fc.integer({ min: -3, max: 13 }), fc.double()), tags: fc.array(fc.oneof(fc.string(), fc.boolean())) }, { requiredKeys: [] }), (v) => {
        expect(validateJson(schema, v).length === 0).toBe(ajv(v));
      }),
      { numRuns: 300 },
    );
  });
});

describe('tool schema problems', () => {
  it('names the mistakes that would make every call fail', () => {
    expect(schemaProblems({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] })).toBe('');
    expect(schemaProblems({ type: 'objectx' })).toMatch(/^\/type: "objectx" is not a JSON type/);
    expect(schemaProblems({ type: 'object', properties: { city: { type: 'strin' } } })).toMatch(/^\/properties\/city\/type/);
    expect(schemaProblems({ type: 'object', required: 'city' })).toBe('/required must be an array of property names');
  });
});
