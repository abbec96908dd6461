/**
 * Reading what `stepwise eval` is given: the dataset file (by its extension: `.dataset.json`
 * or `.json`, `.jsonl`, `.csv`, and promptfoo's `.yaml`/`.yml`; promptfoo's forms of JSON, JSONL
 * and CSV are told apart by their keys), assertions for the whole dataset (a file or inline JSON), the
 * variants, and the folder of a batch to resume.
 * Every problem is collected and named with its file and place; the command exits 2 with them.
 */
import path from 'node:path';
import { stat } from 'node:fs/promises';
import { parseCsv, parseDatasetFile, parseJsonl, checkDataset } from '../../../shared/eval/dataset-io';
import { AssertionSchema, type Assertion, type Dataset } from '../../../shared/eval/dataset';
import { schemaProblems } from '../../../shared/thread/validate';
import { parseJsonText } from '../../../shared/thread/json-text';
import { BATCH_FILE } from '../../core/eval/batch-files';
import { parseVariant, type Variant } from '../../core/eval/variants';
import { Type } from '@sinclair/typebox';
import { fsErrorPhrase } from '../../../shared/fs-errors';
import { readRegularFile } from '../../../shared/regular-file.node.js';
import { isYamlFile, parsePromptfooJson, parsePromptfooYaml } from './promptfoo-file';

/** Reads a dataset file; throws an Error listing every problem, each prefixed with the file. */
export async function readDatasetFile(file: string): Promise<Dataset> {
  let text: string;
  try {
    text = await readRegularFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : fsErrorPhrase(err);
    throw new Error(`${file}: cannot read the dataset: ${why}`, { cause: err });
  }
  const base = path.basename(file);
  const name = base.replace(/(\.dataset)?\.(json|jsonl|csv|ya?ml)$/i, '') || base;
  const ext = path.extname(file).toLowerCase();
  const read = ext === '.jsonl' ? parseJsonl(text, name) : ext === '.csv' ? parseCsv(text, name) : isYamlFile(file) ? parsePromptfooYaml(text, name) : (parsePromptfooJson(text, name) ?? parseDatasetFile(text));
  if (!read.ok) throw new Error(read.errors.map((e) => `${file}: ${e}`).join('\n'));
  return read.dataset;
}

/** The `--assertions` given: the list, and how errors and warnings name it (the file, or `--assertions` for inline JSON). */
export interface AssertionsArg {
  assertions: Assertion[];
  label: string;
}

/**
 * Reads `--assertions`: a file holding a JSON array of assertions, or the array itself
 * (`--assertions '[{"type":"contains","value":"4"}]'`: JSON text that is no file's name;
 * a value that is not an array, such as `null`, gets the schema check's error). Throws naming the file (or `--assertions`) and the place: line and column
 * (1-based) of a JSON syntax error, the JSON pointer of an assertion that does not check.
 */
export async function readAssertionsArg(arg: string): Promise<AssertionsArg> {
  let text: string;
  let label = arg;
  try {
    text = await readRegularFile(arg);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // No such file, but JSON text: an array or object (its syntax errors are named), or any
    // other JSON value (the schema check names it).
    if (code === 'ENOENT' && (/^\s*[[{]/.test(arg) || parseJsonText(arg).ok)) {
      text = arg;
      label = '--assertions';
    } else {
      const why = code === 'ENOENT' ? 'no such file' : `cannot read it: ${fsErrorPhrase(err)}`;
      throw new Error(`--assertions ${arg}: ${why}; give a file holding a JSON array of assertions, or the array itself`, { cause: err });
    }
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new Error(`${label} line ${parsed.problem.line}, column ${parsed.problem.column}: ${parsed.problem.message}`);
  const problems = schemaProblems(Type.Array(AssertionSchema), parsed.value);
  if (problems.length) throw new Error(problems.map((p) => `${p.pointer ? `${label}:${p.pointer}` : label}: ${p.message}`).join('\n'));
  return { assertions: parsed.value as Assertion[], label };
}

/**
 * The warning for an empty `--assertions` list (undefined when it is not empty): with no
 * assertion anywhere in the dataset, every case that runs without error passes. `otherLists`:
 * another `--assertions` list that is not empty was given too.
 */
export function emptyAssertionsWarning(given: AssertionsArg, d: Dataset, otherLists = false): string | undefined {
  if (given.assertions.length) return undefined;
  if (otherLists) return `${given.label} is an empty list: it adds no assertions (the other --assertions lists are checked)`;
  const none = !d.assertions.length && !d.cases.some((c) => c.assertions?.length);
  return none
    ? `${given.label} is an empty list and the dataset has no assertions: no assertions were given, so every case that runs without error passes`
    : `${given.label} is an empty list: it adds no assertions (only the dataset's own are checked)`;
}

/**
 * Why `--resume <folder>` cannot be a batch folder (no such folder, not a folder, no batch
 * file in it), or undefined when it has a batch file. The message names the folder as given.
 */
export async function resumeFolderProblem(folder: string): Promise<string | undefined> {
  const hint = 'give the folder a batch printed after "results:"';
  try {
    if (!(await stat(folder)).isDirectory()) return `--resume ${folder}: not a folder; ${hint}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `--resume ${folder}: no such folder; ${hint}` : `--resume ${folder}: cannot read the folder: ${fsErrorPhrase(err)}`;
  }
  try {
    await stat(path.join(folder, BATCH_FILE));
  } catch {
    return `--resume ${folder}: not a batch folder (it has no ${BATCH_FILE}); ${hint}`;
  }
  return undefined;
}

/** The dataset with extra dataset-level assertions, checked again (regexes, schemas). */
export function withAssertions(d: Dataset, extra: Assertion[]): Dataset {
  if (!extra.length) return d;
  const next = { ...d, assertions: [...d.assertions, ...extra] };
  const checked = checkDataset(next);
  if (!checked.ok) throw new Error(checked.errors.map((e) => `assertions: ${e}`).join('\n'));
  return next;
}

/** Whether an assertion compares the final text with the case's `expected` (shared/eval/assertions.ts, judge.ts). */
const usesExpected = (a: Assertion): boolean => a.type === 'judge' || ((a.type === 'equals' || a.type === 'contains' || a.type === 'not_contains') && !a.value);

/**
 * How many cases have an `expected` value that no assertion of theirs (the dataset's, with
 * `--assertions`, or the case's own) compares with: such a value is never checked.
 */
export function uncheckedExpected(d: Dataset): number {
  const datasetWide = d.assertions.some(usesExpected);
  return datasetWide ? 0 : d.cases.filter((c) => c.expected !== undefined && !(c.assertions ?? []).some(usesExpected)).length;
}

/** Parses every `--variant`; none gives the one variant `base` (the thread as it is). */
export function readVariants(specs: string[]): Variant[] {
  if (!specs.length) return [{ name: 'base' }];
  return specs.map((s, i) => {
    try {
      return parseVariant(s);
    } catch (err) {
      throw new Error(`--variant ${i + 1} (${JSON.stringify(s)}): ${(err as Error).message}`, { cause: err });
    }
  });
}
