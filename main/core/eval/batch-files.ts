/**
 * A batch's folder: `batch.json` (what was asked: the thread, the dataset, the variants, as
 * they were when the batch started, so a resumed batch runs the same cases) and
 * `results.jsonl` (one finished case per line, appended in groups as cases finish, so an
 * interrupted batch keeps every finished case); `cases.jsonl` beside them holds each case's thread
 * and run (case-store.ts).
 */
import path from 'node:path';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { CaseResult } from '../../../shared/eval/results';
import { parseJsonText } from '../../../shared/thread/json-text';
import { checkBatchSpec, type BatchSpec } from './batch-spec';

/** A dotfile: the workspace tree does not list it as a thread. */
export const BATCH_FILE = '.batch.json';
export const RESULTS_FILE = 'results.jsonl';

export type { BatchSpec } from './batch-spec';

export async function writeBatchSpec(dir: string, spec: BatchSpec): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(path.join(dir, BATCH_FILE), `${JSON.stringify(spec, null, 2)}\n`);
}

/** A batch file that could not be read or does not check; `message` names the file and the fields, never its folder. */
export class BatchFileError extends Error {
  constructor(
    message: string,
    /** The batch's id when the file names one (so a request for it can say what is wrong). */
    readonly batchId?: string,
  ) {
    super(message);
    this.name = 'BatchFileError';
  }
}

/** The batch file of `dir`, checked (batch-spec.ts). Throws BatchFileError, or the read's error when there is no file. */
export async function readBatchSpec(dir: string): Promise<BatchSpec> {
  const text = await readFile(path.join(dir, BATCH_FILE), 'utf8');
  // Syntax errors by line and column, never quoting the text (it holds the thread file's absolute path).
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new BatchFileError(`${BATCH_FILE} is not JSON: line ${parsed.problem.line}, column ${parsed.problem.column}: ${parsed.problem.message}`);
  const value = parsed.value;
  const checked = checkBatchSpec(value);
  if (!checked.ok) {
    const id = value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string }).id : undefined;
    throw new BatchFileError(`${BATCH_FILE} is not a usable batch file: ${checked.problems.join('; ')}`, id);
  }
  return checked.spec;
}

/**
 * The finished cases of a batch. A line that does not parse (a host that died mid-write) is
 * skipped; `skipped` holds the 1-based numbers of those lines. For a case × variant written twice, the last line wins. `cutShort`: the
 * file does not end with a newline (a write cut off); the case store's writer (case-store.ts)
 * starts its next write on a new line then, or it would join the broken line.
 */
export async function readResults(dir: string): Promise<{ results: CaseResult[]; skipped: number[]; cutShort: boolean }> {
  let text: string;
  try {
    text = await readFile(path.join(dir, RESULTS_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { results: [], skipped: [], cutShort: false };
    throw err;
  }
  const cutShort = text.length > 0 && !text.endsWith('\n');
  const byKey = new Map<string, CaseResult>();
  const skipped: number[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as CaseResult;
      if (typeof r.caseId !== 'string' || typeof r.variant !== 'string' || typeof r.status !== 'string') throw new Error('not a result');
      byKey.set(`${r.caseId}\u0000${r.variant}`, r);
    } catch {
      skipped.push(i + 1);
    }
  }
  return { results: [...byKey.values()], skipped, cutShort };
}

/** A batch folder: its checked batch file, or why it cannot be used. */
export type BatchEntry = { dir: string; spec: BatchSpec } | { dir: string; error: BatchFileError };

/**
 * The batch folders under `root` (one level of dataset folders, then folders holding a batch
 * file): those that check, newest first, then those that do not (with their error). Batch ids
 * are what opening and resuming find a batch by: when two folders hold the same id (a copied
 * folder), the one named by the id (else the first by path) keeps it and the other is listed
 * with an error saying so.
 */
export async function listBatches(root: string): Promise<BatchEntry[]> {
  const good: { dir: string; spec: BatchSpec }[] = [];
  const bad: { dir: string; error: BatchFileError }[] = [];
  const datasets = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const d of datasets) {
    if (!d.isDirectory()) continue;
    const batches = await readdir(path.join(root, d.name), { withFileTypes: true }).catch(() => []);
    for (const b of batches) {
      if (!b.isDirectory()) continue;
      const dir = path.join(root, d.name, b.name);
      try {
        good.push({ dir, spec: await readBatchSpec(dir) });
      } catch (err) {
        if (err instanceof BatchFileError) bad.push({ dir, error: err });
        // else: no batch file there (not a batch)
      }
    }
  }
  const owner = new Map<string, string>();
  const named = (e: { dir: string; spec: BatchSpec }) => (path.basename(e.dir) === e.spec.id ? 0 : 1);
  for (const e of [...good].sort((a, b) => named(a) - named(b) || (a.dir < b.dir ? -1 : 1))) if (!owner.has(e.spec.id)) owner.set(e.spec.id, e.dir);
  const kept = good.filter((e) => owner.get(e.spec.id) === e.dir);
  const copies = good
    .filter((e) => owner.get(e.spec.id) !== e.dir)
    .map((e) => ({ dir: e.dir, error: new BatchFileError(`${BATCH_FILE} repeats the id ${JSON.stringify(e.spec.id)} of the batch in ${path.relative(root, owner.get(e.spec.id)!)} (a copied folder?): give it a new "id", or remove the folder`) }));
  return [...kept.sort((a, b) => b.spec.createdAt - a.spec.createdAt), ...copies, ...bad];
}
