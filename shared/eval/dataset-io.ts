/**
 * Reading and writing datasets: the workspace file (`*.dataset.json`), JSONL (one case per
 * line) and CSV (one case per row, a header naming the columns). Browser-safe.
 *
 * A case line or row: `id`, `expected`, `tags` and `assertions` are the case's own fields;
 * every other key or column is a variable. In JSONL a line may also give `vars` as an object
 * (the form export writes). In CSV, `tags` is a comma-separated list and `assertions` a JSON
 * array. Errors name the file line (1-based) and the field; at most MAX_LISTED_PROBLEMS are
 * listed, then a count of the rest. Nothing is half-read: a file with any error yields no
 * dataset. A leading UTF-8 byte-order mark is skipped in both formats.
 *
 * promptfoo's forms are read too (promptfoo.ts): a JSONL line with a key only promptfoo's test
 * cases have (`assert`, `description`, `options`, `metadata`…) is a promptfoo test, and a CSV
 * whose header has a `__` column (`__expected`, `__description`…) is promptfoo's CSV. A key of
 * one form in a line of the other is refused by name, never taken as a variable.
 */
import Papa from 'papaparse';
import { DATASET_VERSION, DatasetSchema, EvalCaseSchema, type Dataset, type EvalCase } from './dataset';
import { schemaProblems } from '../thread/validate';
import { schemaProblem } from '../json/json-schema';
import { caseOfPromptfooCsvRow, caseOfPromptfooTest, PROMPTFOO_ONLY_KEYS, readPromptfooDocument, unsupportedError, type PromptfooProblems } from './promptfoo';

/** A dataset read, or every problem found, each naming where. */
export type DatasetRead = { ok: true; dataset: Dataset } | { ok: false; errors: string[] };

const OWN_FIELDS = new Set(['id', 'expected', 'tags', 'assertions', 'vars', 'source']);

/** At most this many problems are listed; the rest are counted in one last line. */
export const MAX_LISTED_PROBLEMS = 20;

/** The first {@link MAX_LISTED_PROBLEMS} problems, then "… and N more problems" when there are more. */
export function capProblems(errors: string[]): string[] {
  if (errors.length <= MAX_LISTED_PROBLEMS) return errors;
  return [...errors.slice(0, MAX_LISTED_PROBLEMS), `… and ${errors.length - MAX_LISTED_PROBLEMS} more problems`];
}

/**
 * Checks a parsed dataset document: the schema, unique case ids, regexes and JSON Schemas that
 * compile. `caseAt` names case i's place in the file it was read from (e.g. "line 3"); without
 * it cases are named by JSON pointer (`/cases/2`).
 */
export function checkDataset(value: unknown, caseAt?: (index: number) => string): DatasetRead {
  const problems = schemaProblems(DatasetSchema, value).map((p) => `${p.pointer || '/'}: ${p.message}`);
  if (problems.length) return { ok: false, errors: capProblems(problems) };
  const d = value as Dataset;
  const errors: string[] = [];
  const seen = new Map<string, number>();
  d.cases.forEach((c, i) => {
    const first = seen.get(c.id);
    if (first === undefined) seen.set(c.id, i);
    else if (caseAt) errors.push(`${caseAt(i)}: id "${c.id}" is used by ${caseAt(first)} too; case ids must be unique`);
    else errors.push(`/cases/${i}/id: case id "${c.id}" is also used at /cases/${first}/id; case ids must be unique`);
  });
  const checkAssertions = (list: Dataset['assertions'] | undefined, at: string) =>
    list?.forEach((a, i) => {
      if (a.type === 'regex') {
        try {
          new RegExp(a.pattern, a.flags);
        } catch (err) {
          errors.push(`${at}/${i}/pattern: not a valid regular expression (${(err as Error).message})`);
        }
      }
      if (a.type === 'json_schema') {
        const p = schemaProblem(a.schema);
        if (p) errors.push(`${at}/${i}/schema: not a usable JSON Schema (${p})`);
      }
    });
  checkAssertions(d.assertions, '/assertions');
  d.cases.forEach((c, i) => checkAssertions(c.assertions, caseAt ? `${caseAt(i)}: assertions` : `/cases/${i}/assertions`));
  return errors.length ? { ok: false, errors: capProblems(errors) } : { ok: true, dataset: d };
}

/** Reads a `*.dataset.json` file's text. */
export function parseDatasetFile(text: string): DatasetRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: [`not JSON: ${(err as Error).message}`] };
  }
  return checkDataset(value);
}

/** The dataset file's text (stable key order, two-space indent, final newline). */
export function formatDatasetFile(d: Dataset): string {
  return `${JSON.stringify(d, null, 2)}\n`;
}

/** A cell or JSON value as a variable's text: strings as they are, anything else as JSON. */
function asText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** One record (a JSONL object or a CSV row) as a case; `where` names it in errors. */
function caseOf(rec: Record<string, unknown>, index: number, where: string, errors: string[]): EvalCase | undefined {
  const vars: [string, string][] = [];
  if (rec.vars !== undefined) {
    if (!rec.vars || typeof rec.vars !== 'object' || Array.isArray(rec.vars)) {
      errors.push(`${where}: "vars" must be an object of variable values`);
      return undefined;
    }
    for (const [k, v] of Object.entries(rec.vars as Record<string, unknown>)) vars.push([k, asText(v)]);
  }
  for (const [k, v] of Object.entries(rec)) if (!OWN_FIELDS.has(k)) vars.push([k, asText(v)]);
  // fromEntries defines each name as an own property: a variable called "__proto__" stays a variable.
  const c: EvalCase = { id: rec.id === undefined || rec.id === '' ? `case-${index + 1}` : asText(rec.id), vars: Object.fromEntries(vars) };
  if (rec.expected !== undefined && rec.expected !== '') c.expected = asText(rec.expected);
  if (rec.tags !== undefined && rec.tags !== '') {
    const tags = typeof rec.tags === 'string' ? rec.tags.split(',').map((t) => t.trim()).filter(Boolean) : rec.tags;
    if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) {
      errors.push(`${where}: "tags" must be a list of strings (in CSV: comma-separated)`);
      return undefined;
    }
    c.tags = tags;
  }
  if (rec.assertions !== undefined && rec.assertions !== '') {
    let list = rec.assertions;
    if (typeof list === 'string') {
      try {
        list = JSON.parse(list);
      } catch (err) {
        errors.push(`${where}: "assertions" is not JSON (${(err as Error).message})`);
        return undefined;
      }
    }
    c.assertions = list as EvalCase['assertions'];
  }
  if (rec.source !== undefined) c.source = rec.source as EvalCase['source'];
  const problems = schemaProblems(EvalCaseSchema, c);
  if (problems.length) {
    for (const p of problems) errors.push(`${where}: ${p.pointer.slice(1) || 'case'}: ${p.message}`);
    return undefined;
  }
  return c;
}

/** The dataset of the cases read, or the problems (promptfoo assertion types Stepwise lacks first, in one line); `where[i]` names case i's line. */
function finish(name: string, cases: EvalCase[], where: string[], errors: string[], unsupported?: PromptfooProblems['unsupported']): DatasetRead {
  const types = unsupported && unsupportedError(unsupported);
  if (types) errors.unshift(types);
  if (errors.length) return { ok: false, errors: capProblems(errors) };
  return checkDataset({ version: DATASET_VERSION, name, assertions: [], cases }, (i) => where[i] ?? `case ${i + 1}`);
}

/**
 * Whether a parsed JSON document is promptfoo's rather than a Stepwise dataset file: a list (of
 * tests), or an object with `tests` and no `version`.
 */
export function isPromptfooDocument(doc: unknown): boolean {
  if (Array.isArray(doc)) return true;
  return !!doc && typeof doc === 'object' && 'tests' in doc && !('version' in doc);
}

/**
 * A parsed promptfoo YAML or JSON document (promptfoo.ts) as a dataset named `name`;
 * `where(i)` names test i (0-based) in errors, e.g. with its line. `defaultTest.assert` becomes
 * the dataset's assertions.
 */
export function parsePromptfoo(doc: unknown, name: string, where: (i: number) => string): DatasetRead {
  const errors: string[] = [];
  const pf: PromptfooProblems = { errors, unsupported: new Map() };
  const read = readPromptfooDocument(doc, where, pf);
  const types = unsupportedError(pf.unsupported);
  if (types) errors.unshift(types);
  if (errors.length || !read) return { ok: false, errors: capProblems(errors) };
  const d: Dataset = { version: DATASET_VERSION, name, assertions: read.assertions, cases: read.cases };
  if (read.description) d.description = read.description;
  return checkDataset(d, (i) => where(i));
}

/** Strips a UTF-8 byte-order mark (editors on Windows write one). */
function withoutBom(text: string): string {
  return text.replace(/^\uFEFF/, '');
}

/** Reads JSONL: one case object per line; blank lines and a leading byte-order mark are skipped. */
export function parseJsonl(text: string, name: string): DatasetRead {
  const errors: string[] = [];
  const pf: PromptfooProblems = { errors, unsupported: new Map() };
  const cases: EvalCase[] = [];
  const where: string[] = [];
  const lines = withoutBom(text).split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch (err) {
      errors.push(`line ${i + 1}: not JSON (${(err as Error).message})`);
      return;
    }
    if (!rec || typeof rec !== 'object' || Array.isArray(rec)) {
      errors.push(`line ${i + 1}: a case is a JSON object, not ${Array.isArray(rec) ? 'an array' : JSON.stringify(rec)}`);
      return;
    }
    const isPromptfoo = Object.keys(rec).some((k) => PROMPTFOO_ONLY_KEYS.has(k));
    const c = isPromptfoo ? caseOfPromptfooTest(rec, cases.length, `line ${i + 1}`, pf) : caseOf(rec as Record<string, unknown>, cases.length, `line ${i + 1}`, errors);
    if (c) {
      cases.push(c);
      where.push(`line ${i + 1}`);
    }
  });
  return finish(name, cases, where, errors, pf.unsupported);
}

/**
 * The header row's problems: a column with no name, and a name used by more than one column
 * (each named once, with its 1-based column numbers). A repeated name is an error rather than
 * renamed (`q`, `q_1`, as papaparse's header mode does) because the variable's name would
 * silently change.
 */
function headerProblems(header: string[]): string[] {
  const errors: string[] = [];
  const columns = new Map<string, number[]>();
  header.forEach((h, i) => {
    if (!h.trim()) errors.push(`header: column ${i + 1} has no name`);
    else columns.set(h, [...(columns.get(h) ?? []), i + 1]);
  });
  for (const [h, at] of columns) {
    if (at.length > 1) errors.push(`header: column "${h}" appears ${at.length === 2 ? 'twice' : `${at.length} times`} (columns ${at.slice(0, -1).join(', ')} and ${at.at(-1)}); column names must be unique`);
  }
  return errors;
}

/**
 * Whether a row is the header again (what joining two CSV files gives): every cell the same
 * as the header's but for spaces around it, a byte-order mark before the first ignored. Read
 * as a case it would be a case whose values are the column names.
 */
function repeatsHeader(cells: string[], header: string[]): boolean {
  return cells.length === header.length && cells.every((c, i) => withoutBom(c).trim() === header[i].trim());
}

/**
 * Reads CSV with a header row (RFC 4180 quoting, via papaparse). The rows are read as arrays
 * and matched to the header here: papaparse's header mode renames repeated names and writes a
 * warning to the console, and a dataset read must print nothing. Errors name the file line a
 * row starts on (a quoted cell may span lines; blank lines are skipped), 1-based. A row that
 * repeats the header is an error, not a case.
 */
export function parseCsv(text: string, name: string): DatasetRead {
  const body = withoutBom(text);
  const rows: { cells: string[]; line: number; broken: boolean }[] = [];
  const errors: string[] = [];
  // Line numbers come from papaparse's cursor (the offset just past each row): the next row
  // starts after that line break and any blank lines; newlines are counted as we go.
  const skip = /(?:\r\n|\n|\r)?(?:[ \t]*(?:\r\n|\n|\r))*/y;
  let counted = 0;
  let line = 1;
  let prevCursor = 0;
  Papa.parse<string[]>(body, {
    header: false,
    skipEmptyLines: 'greedy',
    step: (r) => {
      skip.lastIndex = prevCursor;
      skip.exec(body);
      const start = Math.max(skip.lastIndex, counted);
      for (let k = counted; k < start; k++) if (body.charCodeAt(k) === 10) line++;
      counted = start;
      prevCursor = r.meta.cursor;
      // A file of one column has no delimiter to detect; papaparse then reads it with ',' (right), so that is no error.
      const found = r.errors.filter((e) => e.code !== 'UndetectableDelimiter');
      for (const e of found) errors.push(`line ${line}: ${e.message}`);
      rows.push({ cells: r.data, line, broken: found.length > 0 });
    },
  });
  const [headerRow, ...records] = rows;
  const header = headerRow?.cells ?? [];
  errors.push(...headerProblems(header));
  for (const { cells, line: at, broken } of records) {
    // A row papaparse could not read (an unclosed quote) is named once, for that.
    if (broken) continue;
    if (repeatsHeader(cells, header)) errors.push(`line ${at}: repeats the header row (two CSV files joined into one?)`);
    else if (cells.length !== header.length) errors.push(`line ${at}: ${cells.length < header.length ? 'Too few' : 'Too many'} fields: expected ${header.length} fields but parsed ${cells.length}`);
  }
  if (errors.length) return { ok: false, errors: capProblems(errors) };
  const cases: EvalCase[] = [];
  const where: string[] = [];
  const pf: PromptfooProblems = { errors, unsupported: new Map() };
  const isPromptfoo = header.some((h) => h.trim().startsWith('__'));
  for (const { cells, line: at } of records) {
    // fromEntries: a column called "__proto__" stays a column.
    const c = isPromptfoo
      ? caseOfPromptfooCsvRow(header.map((h, j) => [h, cells[j] ?? '']), cases.length, `line ${at}`, pf)
      : caseOf(Object.fromEntries(header.map((h, j) => [h, cells[j]])), cases.length, `line ${at}`, errors);
    if (c) {
      cases.push(c);
      where.push(`line ${at}`);
    }
  }
  return finish(name, cases, where, errors, pf.unsupported);
}

/** The cases as JSONL (`{id, vars, expected?, tags?, assertions?}` per line). */
export function toJsonl(d: Dataset): string {
  return d.cases.map((c) => JSON.stringify(c)).join('\n') + (d.cases.length ? '\n' : '');
}

/** The cases as CSV: `id`, one column per variable (first-seen order), `expected`, `tags`, `assertions`. */
export function toCsv(d: Dataset): string {
  const varNames: string[] = [];
  for (const c of d.cases) for (const k of Object.keys(c.vars)) if (!varNames.includes(k)) varNames.push(k);
  const fields = ['id', ...varNames, 'expected', 'tags', 'assertions'];
  const rows = d.cases.map((c) => ({
    id: c.id,
    ...Object.fromEntries(varNames.map((k) => [k, c.vars[k] ?? ''])),
    expected: c.expected ?? '',
    tags: (c.tags ?? []).join(','),
    assertions: c.assertions?.length ? JSON.stringify(c.assertions) : '',
  }));
  return `${Papa.unparse({ fields, data: rows.map((r) => fields.map((f) => (r as Record<string, string>)[f])) }, { newline: '\n' })}\n`;
}
