/**
 * Reading what `stepwise eval` is given: the dataset file (by its extension: `.dataset.json`
 * or `.json`, `.jsonl`, `.csv`), an assertions file for the whole dataset, and the variants.
 * Every problem is collected and named with its file and place; the command exits 2 with them.
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { parseCsv, parseDatasetFile, parseJsonl, checkDataset } from '../../../shared/eval/dataset-io';
import { AssertionSchema, type Assertion, type Dataset } from '../../../shared/eval/dataset';
import { schemaProblems } from '../../../shared/thread/validate';
import { parseVariant, type Variant } from '../../core/eval/variants';
import { Type } from '@sinclair/typebox';

/** Reads a dataset file; throws an Error listing every problem, each prefixed with the file. */
export async function readDatasetFile(file: string): Promise<Dataset> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`${file}: cannot read the dataset (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
  }
  const base = path.basename(file);
  const name = base.replace(/(\.dataset)?\.(json|jsonl|csv)$/i, '') || base;
  const ext = path.extname(file).toLowerCase();
  const read = ext === '.jsonl' ? parseJsonl(text, name) : ext === '.csv' ? parseCsv(text, name) : parseDatasetFile(text);
  if (!read.ok) throw new Error(read.errors.map((e) => `${file}: ${e}`).join('\n'));
  return read.dataset;
}

/** Reads a JSON array of assertions; throws naming the file and the place. */
export async function readAssertionsFile(file: string): Promise<Assertion[]> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`, { cause: err });
  }
  const problems = schemaProblems(Type.Array(AssertionSchema), value);
  if (problems.length) throw new Error(problems.map((p) => `${file}:${p.pointer || '/'}: ${p.message}`).join('\n'));
  return value as Assertion[];
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
const usesExpected = (a: Assertion): boolean => a.type === 'judge' || ((a.type === 'equals' || a.type === 'contains' || a.type === 'not_contains') && a.value === '');

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
