import { describe, expect, it } from 'vitest';
import { answerContent, elicitationFields, fieldProblems, initialValue } from './elicitation-fields';

// The shapes MCP allows in an elicitation's requestedSchema (2025-11-25), as server-everything sends them.
const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your full name', minLength: 2 },
    agree: { type: 'boolean', title: 'Agree' },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    n: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'], default: 'r' },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
    tools: { type: 'array', minItems: 1, maxItems: 2, items: { enum: ['a', 'b', 'c'] }, default: ['a'] },
    fish: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }] } },
    odd: { type: 'object' },
  },
  required: ['name'],
};

describe('elicitation form fields', () => {
  it('reads every shape MCP allows; anything else is a JSON field', () => {
    const fields = elicitationFields(schema);
    expect(fields.map((f) => [f.key, f.kind])).toEqual([
      ['name', 'text'], ['agree', 'boolean'], ['email', 'text'], ['site', 'text'], ['born', 'text'], ['n', 'number'],
      ['color', 'choice'], ['hero', 'choice'], ['tools', 'choices'], ['fish', 'choices'], ['odd', 'json'],
    ]);
    expect(fields[0]).toMatchObject({ label: 'Name', description: 'Your full name', required: true, min: 2 });
    expect(fields[2]).toMatchObject({ label: 'email', format: 'email', required: false });
    expect(fields[5]).toMatchObject({ integer: true, min: 1, max: 100, default: 42 });
    expect(fields[6].options).toEqual([{ value: 'r', label: 'Red' }, { value: 'g', label: 'Green' }]);
    expect(fields[7].options).toEqual([{ value: 'h1', label: 'Superman' }]);
    expect(fields[9].options).toEqual([{ value: 'f1', label: 'Tuna' }]);
  });

  it('answers with defaults and filled fields, leaves empty optional ones out, and names what is wrong', () => {
    const fields = elicitationFields(schema);
    const values = Object.fromEntries(fields.map((f) => [f.key, initialValue(f)]));
    const start = answerContent(fields, values);
    expect(start).toEqual({ agree: false, n: 42, color: 'r', tools: ['a'] });
    expect(fieldProblems(fields, start)).toEqual(['Name is required']);
    const bad = answerContent(fields, { ...values, name: 'A', email: 'nope', site: 'example.org', born: '2024-13-45', n: 101, tools: ['a', 'b', 'c'] });
    expect(fieldProblems(fields, bad)).toEqual([
      'Name needs at least 2 characters',
      'email must be an e-mail address',
      'site must be a URL with a scheme (https://…)',
      'born must be a date (YYYY-MM-DD)',
      'n must be at most 100',
      'tools: choose at most 2',
    ]);
    // A number being typed ("-", "1e") is not a number yet: named, never sent as NaN or null.
    expect(fieldProblems(fields, answerContent(fields, { ...values, name: 'Ada', n: '-' }))).toEqual(['n must be a number']);
    const good = answerContent(fields, { ...values, name: 'Ada', email: 'ada@example.org', site: 'https://ada.dev', born: '1815-12-10' });
    expect(fieldProblems(fields, good)).toEqual([]);
  });
});
