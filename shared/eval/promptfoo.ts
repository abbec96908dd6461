/**
 * promptfoo's test cases as a Stepwise dataset (docs/architecture.md#evaluation), read as
 * promptfoo 0.121 writes them: a YAML or JSON list of `{vars, assert, description, options,
 * metadata}` (or a config object with `tests` and `defaultTest`), a JSONL line of the same
 * shape, and a CSV row whose `__expected`, `__expected<N>`, `__description`, `__metric`,
 * `__metadata:<key>` (and `<key>[]`) and `__config:__expected<N>:threshold` columns say what
 * they say in promptfoo. Every key is read or refused by name; assertion types Stepwise lacks
 * are gathered into one error that lists them. Browser-safe (the YAML text is parsed by the
 * caller).
 */
import type { Assertion, EvalCase } from './dataset';
import { fromPromptfooAssertion, promptfooAssertionOfCell, SUPPORTED_PROMPTFOO_TYPES } from './promptfoo-assertions';

/** The keys of a promptfoo test case (its `TestCaseSchema`). */
export const PROMPTFOO_CASE_KEYS = ['vars', 'assert', 'description', 'options', 'metadata', 'threshold', 'provider', 'providers', 'prompts', 'providerOutput', 'assertScoringFunction'] as const;

/** A key that only a promptfoo test case has (a Stepwise JSONL line with one is read as promptfoo's). */
export const PROMPTFOO_ONLY_KEYS = new Set(['assert', 'description', 'options', 'metadata', 'threshold', 'provider', 'providers', 'prompts', 'providerOutput', 'assertScoringFunction']);

/** What the reader gathers: problems by place, and unsupported assertion types with the places that use them. */
export interface PromptfooProblems {
  errors: string[];
  unsupported: Map<string, string[]>;
}

/** One line naming every unsupported type, where it is used (the first 3 places) and what Stepwise checks. */
export function unsupportedError(unsupported: Map<string, string[]>): string | undefined {
  if (!unsupported.size) return undefined;
  const listed = [...unsupported].map(([t, at]) => `${t} (${at.slice(0, 3).join(', ')}${at.length > 3 ? ` and ${at.length - 3} more` : ''})`);
  return `promptfoo assertion types Stepwise does not check: ${listed.join('; ')}. Stepwise checks ${SUPPORTED_PROMPTFOO_TYPES.join(', ')}`;
}

function varText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v && typeof v === 'object') return JSON.stringify(v);
  return undefined;
}

/** Reads `vars` of a test (or of `defaultTest`); a `file://` value (promptfoo loads the file) and a null are refused. */
function readVars(v: unknown, where: string, p: PromptfooProblems): Record<string, string> {
  if (v === undefined) return {};
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    p.errors.push(`${where}: "vars" must be an object of variable values (a file of vars, or a list, is not read)`);
    return {};
  }
  const out: [string, string][] = [];
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const text = varText(val);
    if (text === undefined) p.errors.push(`${where}: vars.${k} is ${val === null ? 'null' : typeof val}; a variable's value is text, a number, a boolean, a list or an object`);
    else if (typeof val === 'string' && val.startsWith('file://')) p.errors.push(`${where}: vars.${k} names a file (${JSON.stringify(val.slice(0, 80))}); Stepwise does not load files into promptfoo vars`);
    else out.push([k, text]);
  }
  return Object.fromEntries(out);
}

/**
 * promptfoo renders an assertion's text `value` as a template over the test's vars. A value whose
 * templates are all plain `{{ name }}` of the test's vars is filled in here; any other template
 * (filters, tags, unknown names) is refused, not compared as written.
 */
function fillTemplates(a: unknown, vars: Record<string, string> | undefined, where: string, p: PromptfooProblems): unknown {
  if (!a || typeof a !== 'object' || Array.isArray(a)) return a;
  const rec = a as Record<string, unknown>;
  const fill = (v: unknown): unknown => {
    if (typeof v !== 'string' || !/\{\{|\{%/.test(v)) return v;
    const out = v.replace(/\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g, (m, name: string) => (vars && Object.hasOwn(vars, name) ? vars[name]! : m));
    if (/\{\{|\{%/.test(out)) {
      p.errors.push(`${where}: the value ${JSON.stringify(v.slice(0, 80))} is a template Stepwise cannot fill (only {{ name }} of the test's vars is)`);
      return v;
    }
    return out;
  };
  return { ...rec, value: Array.isArray(rec.value) ? rec.value.map(fill) : fill(rec.value) };
}

/** Whether an assert entry's value holds a template (it is then filled per test). */
function hasTemplate(a: unknown): boolean {
  const v = a && typeof a === 'object' ? (a as { value?: unknown }).value : undefined;
  return [v].flat().some((x) => typeof x === 'string' && /\{\{|\{%/.test(x));
}

/** Reads an `assert` list into Stepwise assertions, templates filled from `vars` (problems and unsupported types gathered). */
export function readAsserts(list: unknown, where: string, p: PromptfooProblems, vars?: Record<string, string>): Assertion[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    p.errors.push(`${where}: "assert" must be a list of assertions`);
    return [];
  }
  const out: Assertion[] = [];
  list.forEach((a, i) => {
    const r = fromPromptfooAssertion(fillTemplates(a, vars, `${where}: assert ${i + 1}`, p));
    if (r.ok) out.push(...r.assertions);
    else if ('unsupported' in r) p.unsupported.set(r.unsupported, [...(p.unsupported.get(r.unsupported) ?? []), `${where} assert ${i + 1}`]);
    else p.errors.push(`${where}: assert ${i + 1}: ${r.problem}`);
  });
  return out;
}

/** `metadata` as tags: `key=value` (a list gives one tag per item). */
function readMetadata(v: unknown, where: string, p: PromptfooProblems): string[] {
  if (v === undefined) return [];
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    p.errors.push(`${where}: "metadata" must be an object`);
    return [];
  }
  const tags: string[] = [];
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    for (const item of Array.isArray(val) ? val : [val]) {
      const text = varText(item);
      if (text === undefined) p.errors.push(`${where}: metadata.${k} is ${item === null ? 'null' : typeof item}`);
      else tags.push(`${k}=${text}`);
    }
  }
  return tags;
}

/** Refuses what a test may hold that Stepwise does not do, by name. */
function refuseUnsupportedKeys(rec: Record<string, unknown>, where: string, p: PromptfooProblems): void {
  const known = new Set<string>(PROMPTFOO_CASE_KEYS);
  for (const k of Object.keys(rec)) if (!known.has(k)) p.errors.push(`${where}: unknown key "${k}" (a promptfoo test has ${PROMPTFOO_CASE_KEYS.join(', ')})`);
  if (rec.options !== undefined) {
    const o = rec.options;
    if (!o || typeof o !== 'object' || Array.isArray(o)) p.errors.push(`${where}: "options" must be an object`);
    else for (const k of Object.keys(o)) p.errors.push(`${where}: options.${k} is not supported by Stepwise (the thread says how its prompt is made and graded)`);
  }
  if (rec.threshold !== undefined) p.errors.push(`${where}: "threshold" (a weighted score for the test) is not supported: a Stepwise case passes when every assertion passes`);
  for (const k of ['provider', 'providers', 'prompts', 'providerOutput', 'assertScoringFunction'] as const) {
    if (rec[k] !== undefined) p.errors.push(`${where}: "${k}" is not supported: the thread and the --variant options say what runs`);
  }
}

/**
 * One promptfoo test as a case: `description` is its id when it has one (else `case-<n>`,
 * 1-based), `vars` its variables over `defaults.vars`, `assert` its assertions, `metadata` its
 * tags (`key=value`).
 */
export function caseOfPromptfooTest(rec: unknown, index: number, where: string, p: PromptfooProblems, defaults: { vars: Record<string, string>; templated?: unknown[] } = { vars: {} }): EvalCase | undefined {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) {
    p.errors.push(`${where}: a promptfoo test is an object with vars and assert`);
    return undefined;
  }
  const r = rec as Record<string, unknown>;
  const before = p.errors.length;
  refuseUnsupportedKeys(r, where, p);
  const vars = { ...defaults.vars, ...readVars(r.vars, where, p) };
  // defaultTest's templated assertions are this test's own, filled with its vars.
  const assertions = [...(defaults.templated?.length ? readAsserts(defaults.templated, `${where} (defaultTest)`, p, vars) : []), ...readAsserts(r.assert, where, p, vars)];
  const tags = readMetadata(r.metadata, where, p);
  if (r.description !== undefined && typeof r.description !== 'string') p.errors.push(`${where}: "description" must be text`);
  if (p.errors.length > before) return undefined;
  const c: EvalCase = { id: typeof r.description === 'string' && r.description.trim() ? r.description : `case-${index + 1}`, vars };
  if (assertions.length) c.assertions = assertions;
  if (tags.length) c.tags = tags;
  return c;
}

/** A promptfoo document: a list of tests, or a config with `tests` (a list) and `defaultTest`. */
export interface PromptfooDocument {
  cases: EvalCase[];
  /** `defaultTest.assert`: checked on every case. */
  assertions: Assertion[];
  description?: string;
}

const CONFIG_KEYS = new Set(['tests', 'defaultTest', 'description']);

/**
 * Reads a parsed promptfoo YAML/JSON document; `where(i)` names test i (0-based) in errors.
 * Keys of a config other than `tests`, `defaultTest` and `description` (prompts, providers…)
 * are refused by name: the thread is what runs.
 */
export function readPromptfooDocument(doc: unknown, where: (i: number) => string, p: PromptfooProblems): PromptfooDocument | undefined {
  let tests: unknown = doc;
  let defaults: { vars: Record<string, string>; templated?: unknown[] } = { vars: {} };
  let assertions: Assertion[] = [];
  let description: string | undefined;
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const cfg = doc as Record<string, unknown>;
    for (const k of Object.keys(cfg)) if (!CONFIG_KEYS.has(k)) p.errors.push(`"${k}": Stepwise reads tests, defaultTest and description of a promptfoo config; the thread and --variant say what runs`);
    tests = cfg.tests;
    if (typeof cfg.description === 'string') description = cfg.description;
    if (cfg.defaultTest !== undefined) {
      const d = cfg.defaultTest;
      if (!d || typeof d !== 'object' || Array.isArray(d)) p.errors.push('defaultTest: must be an object (a file:// reference is not read)');
      else {
        const dr = d as Record<string, unknown>;
        refuseUnsupportedKeys({ ...dr, description: undefined }, 'defaultTest', p);
        if (dr.metadata !== undefined) p.errors.push('defaultTest: "metadata" is not supported (give it to each test)');
        const list = Array.isArray(dr.assert) ? dr.assert : undefined;
        defaults = { vars: readVars(dr.vars, 'defaultTest', p), templated: list?.filter(hasTemplate) };
        assertions = readAsserts(list ? list.filter((a) => !hasTemplate(a)) : dr.assert, 'defaultTest', p);
      }
    }
  }
  if (!Array.isArray(tests)) {
    p.errors.push(tests === undefined ? 'no tests: a promptfoo tests file is a list of tests, or a config with "tests"' : '"tests" must be a list of tests (a file:// reference or a glob is not read: give the tests file itself)');
    return undefined;
  }
  const cases: EvalCase[] = [];
  tests.forEach((t, i) => {
    const c = caseOfPromptfooTest(t, i, where(i), p, defaults);
    if (c) cases.push(c);
  });
  return { cases, assertions, ...(description ? { description } : {}) };
}

/** CSV columns that are promptfoo's and what they are; any other `__` column is refused by name. */
const SINGLE_UNDERSCORE = /^_(expected|prefix|suffix|description|providerOutput|metric|threshold|metadata|config)/;

/**
 * One promptfoo CSV row as a case (`row`: header → cell, in header order). `__expected*` cells
 * are assertions as promptfoo reads them; `__description` the id; `__metric` names every
 * assertion's metric; `__metadata:<key>` a tag (`<key>[]`: a comma-separated list, `\,` a
 * comma); `__config:__expected<N>:threshold` the threshold of assertion N. Refused by name:
 * `__prefix`, `__suffix`, `__providerOutput`, `__threshold`, `__metadata` without a key, other
 * `__` columns, and `_expected`-like columns with one underscore (promptfoo warns; they would
 * become variables).
 */
export function caseOfPromptfooCsvRow(row: [string, string][], index: number, where: string, p: PromptfooProblems): EvalCase | undefined {
  const before = p.errors.length;
  const vars: [string, string][] = [];
  const asserts: Record<string, unknown>[] = [];
  const thresholds = new Map<number, number>();
  const tags: string[] = [];
  let description: string | undefined;
  let metric: string | undefined;
  for (const [rawKey, value] of row) {
    const key = rawKey.trim();
    if (key.startsWith('__expected')) {
      if (!/^__expected(\d*)$/.test(key)) p.errors.push(`${where}: column "${key}": an expected column is __expected or __expected<N>`);
      else if (value.trim() !== '') asserts.push(promptfooAssertionOfCell(value.trim()));
    } else if (key === '__description') description = value;
    else if (key === '__metric') metric = value;
    else if (key.startsWith('__metadata:')) {
      const mk = key.slice(11);
      if (!value.trim()) continue;
      if (mk.endsWith('[]')) for (const item of value.split(/(?<!\\),/)) tags.push(`${mk.slice(0, -2)}=${item.trim().replace(/\\,/g, ',')}`);
      else tags.push(`${mk}=${value}`);
    } else if (key.startsWith('__config:')) {
      const m = /^__config:__expected(\d*):threshold$/.exec(key);
      const n = m ? (m[1] ? Number(m[1]) : 1) : 0;
      if (!m || n < 1) p.errors.push(`${where}: column "${key}": promptfoo's form is __config:__expected<N>:threshold`);
      else if (value.trim() !== '') {
        const t = Number(value.trim());
        if (!Number.isFinite(t)) p.errors.push(`${where}: column "${key}": ${JSON.stringify(value)} is not a number`);
        else thresholds.set(n - 1, t);
      }
    } else if (key.startsWith('__')) {
      const why = ['__prefix', '__suffix'].includes(key) ? 'changes the prompt, which the thread makes in Stepwise' : key === '__threshold' ? 'a weighted score for the test is not supported: a case passes when every assertion passes' : key === '__metadata' ? 'needs a key (__metadata:<key>)' : key === '__providerOutput' ? 'a fixed output is not supported: the thread runs' : 'is not a promptfoo column Stepwise reads';
      if (value.trim() !== '' || key === '__metadata') p.errors.push(`${where}: column "${key}" ${why}`);
    } else if (SINGLE_UNDERSCORE.test(key)) p.errors.push(`${where}: column "${key}" has one underscore; promptfoo's column is "_${key}"`);
    else vars.push([key, value]);
  }
  const assertions: Assertion[] = [];
  asserts.forEach((a, i) => {
    const withConfig = { ...a, ...(thresholds.has(i) ? { threshold: thresholds.get(i) } : {}), ...(metric ? { metric } : {}) };
    const r = fromPromptfooAssertion(withConfig);
    if (r.ok) assertions.push(...r.assertions);
    else if ('unsupported' in r) p.unsupported.set(r.unsupported, [...(p.unsupported.get(r.unsupported) ?? []), `${where} __expected${i ? i + 1 : ''}`]);
    else p.errors.push(`${where}: __expected${i ? i + 1 : ''}: ${r.problem}`);
  });
  if (p.errors.length > before) return undefined;
  const c: EvalCase = { id: description?.trim() ? description : `case-${index + 1}`, vars: Object.fromEntries(vars) };
  if (assertions.length) c.assertions = assertions;
  if (tags.length) c.tags = tags;
  return c;
}
