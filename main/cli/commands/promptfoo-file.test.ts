import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { parsePromptfooJson, parsePromptfooYaml } from './promptfoo-file';
import { parseCsv, parseJsonl, type DatasetRead } from '../../../shared/eval/dataset-io';
import type { Dataset } from '../../../shared/eval/dataset';

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/promptfoo', name), 'utf8');
const ok = (r: DatasetRead | undefined): Dataset => {
  if (!r || !r.ok) throw new Error(`not read: ${r ? r.errors.join('\n') : 'not promptfoo'}`);
  return r.dataset;
};

describe('promptfoo tests files', () => {
  it('a YAML list of tests: vars, assert (not-, i-, -any, weight, metric, threshold), description, metadata', () => {
    const d = ok(parsePromptfooYaml(fixture('tests.yaml'), 'tests'));
    expect(d.assertions).toEqual([]);
    expect(d.cases).toEqual([
      {
        id: 'capital of France',
        vars: { country: 'France', n: '3' },
        assertions: [
          { type: 'contains', value: 'paris', ignoreCase: true },
          { type: 'not_contains', value: 'London' },
        ],
      },
      {
        id: 'case-2',
        vars: { country: 'Japan' },
        assertions: [
          { type: 'regex', pattern: 'Tokyo|Edo' },
          { type: 'regex', pattern: '^The' },
          { type: 'regex', pattern: '\\d+' },
        ],
        tags: ['region=asia', 'tags=capital', 'tags=city'],
      },
      {
        id: 'case-3',
        vars: { country: 'Peru' },
        assertions: [
          { type: 'judge', rubric: 'names Lima as the capital', threshold: 3 },
          { type: 'max_latency', value: 5000 },
          { type: 'max_cost', value: 0.01 },
          { type: 'json_schema', schema: {} },
        ],
      },
    ]);
  });

  it('defaultTest: its vars under each test\'s, its assertions on every case, a templated value filled per test', () => {
    const text = fixture('promptfooconfig.yaml');
    // A whole config names what runs (prompts, providers): refused by name, the thread runs instead.
    const refused = parsePromptfooYaml(text, 'c');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.errors).toEqual([
      '"prompts": Stepwise reads tests, defaultTest and description of a promptfoo config; the thread and --variant say what runs',
      '"providers": Stepwise reads tests, defaultTest and description of a promptfoo config; the thread and --variant say what runs',
    ]);
    const d = ok(parsePromptfooYaml(text.replace(/^prompts:[\s\S]*?(?=defaultTest:)/m, ''), 'c'));
    expect(d.description).toBe('Capitals');
    // contains-all [capital, "{{country}}"] is filled per test, so it is each case's own.
    expect(d.assertions).toEqual([]);
    expect(d.cases).toEqual([
      { id: 'case-1', vars: { tone: 'plain', country: 'Chile' }, assertions: [{ type: 'contains', value: 'capital' }, { type: 'contains', value: 'Chile' }] },
      { id: 'case-2', vars: { tone: 'formal', country: 'Kenya' }, assertions: [{ type: 'contains', value: 'capital' }, { type: 'contains', value: 'Kenya' }, { type: 'equals', value: 'Nairobi' }] },
    ]);
    const plain = ok(parsePromptfooYaml('defaultTest:\n  assert:\n    - type: icontains\n      value: capital\ntests:\n  - vars: {country: Chile}\n', 'c'));
    expect(plain.assertions).toEqual([{ type: 'contains', value: 'capital', ignoreCase: true }]);
    expect(plain.cases).toEqual([{ id: 'case-1', vars: { country: 'Chile' } }]);
  });

  it('a CSV with __expected columns, __description, __metadata, __config thresholds and __metric', () => {
    const d = ok(parseCsv(fixture('tests.csv'), 'tests'));
    expect(d.cases).toEqual([
      { id: 'capital of France', vars: { country: 'France' }, assertions: [{ type: 'contains', value: 'paris', ignoreCase: true }, { type: 'max_latency', value: 3000 }], tags: ['region=europe', 'langs=fr', 'langs=oc'] },
      { id: 'case-2', vars: { country: 'Japan' }, assertions: [{ type: 'regex', pattern: 'Tokyo|Edo, old' }], tags: ['region=asia', 'langs=ja'] },
      { id: 'case-3', vars: { country: 'Peru' }, assertions: [{ type: 'equals', value: 'Lima' }, { type: 'judge', rubric: 'names Lima' }] },
    ]);
  });

  it('assertion types Stepwise lacks are named in one error with where each is used; nothing is read', () => {
    const r = parsePromptfooYaml(fixture('unsupported.yaml'), 'u');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual([
      'promptfoo assertion types Stepwise does not check: javascript (test 1 (line 1) assert 1, test 2 (line 7) assert 2); similar (test 2 (line 7) assert 1). Stepwise checks equals, contains, icontains, not-contains, not-icontains, contains-any, icontains-any, not-contains-any, not-icontains-any, contains-all, icontains-all, regex, starts-with, is-json, llm-rubric, cost, latency',
    ]);
  });

  it('an unknown key of a test is refused by name, in YAML, JSON and JSONL; a JSONL line with assert is promptfoo\'s, never a variable named assert', () => {
    const y = parsePromptfooYaml(fixture('unknown-key.yaml'), 'k');
    expect(!y.ok && y.errors).toEqual(['test 1 (line 1): unknown key "asert" (a promptfoo test has vars, assert, description, options, metadata, threshold, provider, providers, prompts, providerOutput, assertScoringFunction)']);
    const j = parsePromptfooJson(JSON.stringify([{ vars: { q: 'x' }, assert: [{ type: 'contains', value: 'x', transform: 'output.trim()' }] }]), 'j');
    expect(j && !j.ok && j.errors).toEqual(['test 1: assert 1: "transform" runs JavaScript on the output, which Stepwise does not run']);
    const l = ok(parseJsonl('{"vars":{"q":"2+2"},"assert":[{"type":"equals","value":"4"}]}\n', 'l'));
    expect(l.cases).toEqual([{ id: 'case-1', vars: { q: '2+2' }, assertions: [{ type: 'equals', value: '4' }] }]);
    const mixed = parseJsonl('{"id":"a","question":"2+2","assert":[{"type":"equals","value":"4"}]}\n', 'l');
    expect(!mixed.ok && mixed.errors).toEqual([
      'line 1: unknown key "id" (a promptfoo test has vars, assert, description, options, metadata, threshold, provider, providers, prompts, providerOutput, assertScoringFunction)',
      'line 1: unknown key "question" (a promptfoo test has vars, assert, description, options, metadata, threshold, provider, providers, prompts, providerOutput, assertScoringFunction)',
    ]);
  });

  it('one malformed test among 50,000 is named, and no case is read', () => {
    const tests = Array.from({ length: 50_000 }, (_, i) => ({ vars: { i: String(i) }, assert: [{ type: 'contains', value: '4' }] }));
    (tests[31_337]!.assert[0] as Record<string, unknown>).type = 42;
    const r = parsePromptfooJson(JSON.stringify(tests), 'big');
    expect(r && !r.ok && r.errors).toEqual(['test 31338: assert 1: "type" must be an assertion type such as "contains"']);
  });

  const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/\{[{%]/.test(s) && s.trim() === s && s !== '');
  const assertion = fc.oneof(
    fc.record({ type: fc.constantFrom('equals', 'contains', 'icontains', 'not-contains', 'not-icontains', 'starts-with'), value: text }),
    fc.record({ type: fc.constantFrom('contains-any', 'icontains-any', 'contains-all', 'icontains-all', 'not-contains-any'), value: fc.array(text, { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.constantFrom('latency', 'cost'), threshold: fc.integer({ min: 0, max: 10_000 }) }),
  );
  const test = fc.record({ vars: fc.dictionary(fc.constantFrom('a', 'b', 'country', 'n'), text), assert: fc.array(assertion, { maxLength: 4 }) }, { requiredKeys: ['vars'] });

  it('property: any list of supported tests reads back the same from YAML and JSON, one case per test with the vars as written', () => {
    fc.assert(
      fc.property(fc.array(test, { minLength: 1, maxLength: 8 }), (tests) => {
        const fromYaml = ok(parsePromptfooYaml(stringify(tests), 'p'));
        const fromJson = ok(parsePromptfooJson(JSON.stringify(tests), 'p'));
        expect(fromYaml).toEqual(fromJson);
        expect(fromYaml.cases.map((c) => c.vars)).toEqual(tests.map((t) => t.vars));
        const counts = tests.map((t) => (t.assert ?? []).reduce((n, a) => n + (/-all$|^not-contains-any$/.test(a.type) ? (a as { value: string[] }).value.length : 1), 0));
        expect(fromYaml.cases.map((c) => c.assertions?.length ?? 0)).toEqual(counts);
      }),
      { numRuns: 150 },
    );
  });

  it('property: never throws on any YAML text or any JSON value; an error names a place', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v))), (s) => {
        for (const r of [parsePromptfooYaml(s, 'x'), parsePromptfooJson(s, 'x')]) {
          if (r && !r.ok) expect(r.errors.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400 },
    );
  });
});
