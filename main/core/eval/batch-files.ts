/**
 * A batch's folder: `batch.json` (what was asked: the thread, the dataset, the variants, as
 * they were when the batch started, so a resumed batch runs the same cases) and
 * `results.jsonl` (one finished case per line, appended as each finishes, so an interrupted
 * batch keeps every finished case). Case threads sit beside them (case-run.ts).
 */
import path from 'node:path';
import { appendFile, mkdir, readFile, readdir } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { Thread } from '../../../shared/thread/schema';
import type { Dataset } from '../../../shared/eval/dataset';
import type { CaseResult } from '../../../shared/eval/results';
import type { Variant } from './variants';

/** A dotfile: the workspace tree does not list it as a thread. */
export const BATCH_FILE = '.batch.json';
export const RESULTS_FILE = 'results.jsonl';

/** What a batch runs, fixed when it starts. */
export interface BatchSpec {
  id: string;
  /** Shown in the batch list and the case thread titles. */
  name: string;
  /** Epoch ms. */
  createdAt: number;
  /** The thread as it was (its file, relative to the workspace when inside it). */
  threadFile: string;
  thread: Thread;
  datasetFile?: string;
  dataset: Dataset;
  variants: Variant[];
  concurrency: number;
  maxTurns: number;
  /** `local` or the queue's address. */
  scheduler: string;
}

export async function writeBatchSpec(dir: string, spec: BatchSpec): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(path.join(dir, BATCH_FILE), `${JSON.stringify(spec, null, 2)}\n`);
}

export async function readBatchSpec(dir: string): Promise<BatchSpec> {
  const text = await readFile(path.join(dir, BATCH_FILE), 'utf8');
  const spec = JSON.parse(text) as BatchSpec;
  if (!spec || typeof spec !== 'object' || typeof spec.id !== 'string' || !Array.isArray(spec.variants) || !spec.dataset || !spec.thread) {
    throw new Error(`${BATCH_FILE} is not a batch file`);
  }
  return spec;
}

/** Appends one finished case (one line, one write). */
export async function appendResult(dir: string, r: CaseResult): Promise<void> {
  await appendFile(path.join(dir, RESULTS_FILE), `${JSON.stringify(r)}\n`);
}

/**
 * The finished cases of a batch. A line that does not parse (a host that died mid-write) is
 * skipped and counted; for a case × variant written twice, the last line wins.
 */
export async function readResults(dir: string): Promise<{ results: CaseResult[]; skipped: number }> {
  let text: string;
  try {
    text = await readFile(path.join(dir, RESULTS_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { results: [], skipped: 0 };
    throw err;
  }
  const byKey = new Map<string, CaseResult>();
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as CaseResult;
      if (typeof r.caseId !== 'string' || typeof r.variant !== 'string' || typeof r.status !== 'string') throw new Error('not a result');
      byKey.set(`${r.caseId}\u0000${r.variant}`, r);
    } catch {
      skipped++;
    }
  }
  return { results: [...byKey.values()], skipped };
}

/** The batch folders under `root` (one level of dataset folders, then batches), newest first. */
export async function listBatchDirs(root: string): Promise<string[]> {
  const out: { dir: string; t: number }[] = [];
  const datasets = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const d of datasets) {
    if (!d.isDirectory()) continue;
    const batches = await readdir(path.join(root, d.name), { withFileTypes: true }).catch(() => []);
    for (const b of batches) {
      if (!b.isDirectory()) continue;
      const dir = path.join(root, d.name, b.name);
      try {
        const spec = await readBatchSpec(dir);
        out.push({ dir, t: spec.createdAt });
      } catch {
        /* not a batch */
      }
    }
  }
  return out.sort((a, b) => b.t - a.t).map((x) => x.dir);
}
