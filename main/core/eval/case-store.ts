/**
 * A batch's case store (docs/architecture.md#evaluation): what an evaluation writes, grouped.
 * Each finished case's thread and run record are appended as one line to `cases.jsonl` in the
 * batch folder, and its result to `results.jsonl`; the lines of the cases that finish within a
 * few milliseconds of each other go out in one write per file, each flushed to disk
 * (`fdatasync`) before any of those results is acknowledged (printed, pushed to a window). So a
 * batch writes two files, not a thread file, a run folder and a synced run file per case, and a
 * result that was acknowledged survives a kill -9 or a power loss. A case's thread file and run
 * file are written from the store when the case is first opened ({@link materializeCase}), and
 * from then on it is a thread like any other (Run history, branch, re-run).
 */
import path from 'node:path';
import { mkdir, open, readFile, stat, type FileHandle } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { Thread } from '../../../shared/thread/schema';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { CaseResult } from '../../../shared/eval/results';
import { RESULTS_FILE } from './batch-files';
import { runFile } from '../journal/journal';
import { serializeThread } from '../threads/thread-file';

/** The case store's file in a batch folder. */
export const CASES_FILE = 'cases.jsonl';

/** One case as the store keeps it: its thread file's name in the batch folder, its thread after the run, the run's record. */
export interface StoredCase {
  file: string;
  thread: Thread;
  run?: RunRecord;
}

/** A line of the store: `file` first, so that a case is found without parsing every line. */
function caseLine(c: StoredCase): string {
  return `${JSON.stringify({ file: c.file, thread: c.thread, ...(c.run ? { run: c.run } : {}) })}\n`;
}

const linePrefix = (file: string) => `{"file":${JSON.stringify(file)},`;

/** Options of a {@link CaseStoreWriter}. */
export interface CaseStoreOptions {
  /** How long a finished case waits for others to share its write, ms (default 15). */
  groupMs?: number;
  /** A group is written at once when it holds this many cases (default 256). */
  maxGroup?: number;
}

interface Pending {
  result: CaseResult;
  kept?: StoredCase;
  done: () => void;
  failed: (err: Error) => void;
}

/** An append-only file kept open, starting on a new line when the last write was cut short. */
class AppendFile {
  private handle?: FileHandle;

  constructor(private readonly file: string) {}

  async append(text: string): Promise<void> {
    if (!this.handle) {
      const size = await stat(this.file).then((s) => s.size, () => 0);
      await mkdir(path.dirname(this.file), { recursive: true });
      this.handle = await open(this.file, 'a+');
      if (size > 0) {
        const last = Buffer.alloc(1);
        await this.handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) text = `\n${text}`;
      }
    }
    await this.handle.write(text);
    await this.handle.datasync();
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => {});
    this.handle = undefined;
  }
}

/**
 * Writes one batch's finished cases in groups: {@link add} resolves once the case's store line
 * and its result line are on disk (in that order: a result never names a case the store lacks).
 */
export class CaseStoreWriter {
  private readonly cases: AppendFile;
  private readonly results: AppendFile;
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    dir: string,
    private readonly o: CaseStoreOptions = {},
  ) {
    this.cases = new AppendFile(path.join(dir, CASES_FILE));
    this.results = new AppendFile(path.join(dir, RESULTS_FILE));
  }

  /** Adds a finished case (`kept`: its thread and run, when nothing else wrote them); resolves when it is durable. */
  add(result: CaseResult, kept?: StoredCase): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.pending.push({ result, ...(kept ? { kept } : {}), done, failed });
      if (this.pending.length >= (this.o.maxGroup ?? 256)) this.write();
      else this.timer ??= setTimeout(() => this.write(), this.o.groupMs ?? 15);
    });
  }

  /** Writes the group waiting now, after the writes before it. */
  private write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const group = this.pending;
    this.pending = [];
    if (!group.length) return this.chain;
    this.chain = this.chain.then(async () => {
      try {
        const kept = group.flatMap((p) => (p.kept ? [caseLine(p.kept)] : []));
        if (kept.length) await this.cases.append(kept.join(''));
        await this.results.append(group.map((p) => `${JSON.stringify(p.result)}\n`).join(''));
        for (const p of group) p.done();
      } catch (err) {
        for (const p of group) p.failed(err as Error);
      }
    });
    return this.chain;
  }

  /** Writes what waits and closes the files. */
  async close(): Promise<void> {
    await this.write();
    await this.cases.close();
    await this.results.close();
  }
}

/** Where each case's last line starts in a store file, by thread file name; cached per file state. */
const indexes = new Map<string, { stamp: string; at: Map<string, [number, number]> }>();

async function indexOf(file: string): Promise<Map<string, [number, number]> | undefined> {
  const st = await stat(file).catch(() => undefined);
  if (!st) return undefined;
  const stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
  const known = indexes.get(file);
  if (known?.stamp === stamp) return known.at;
  const buf = await readFile(file);
  const at = new Map<string, [number, number]>();
  const head = Buffer.from('{"file":');
  for (let start = 0; start < buf.length; ) {
    let end = buf.indexOf(0x0a, start);
    if (end < 0) end = buf.length;
    if (buf.subarray(start, start + head.length).equals(head)) {
      // The name is the JSON string right after the prefix; a line cut short is skipped when read.
      const close = buf.indexOf('",', start + head.length + 1);
      if (close > 0 && close < end) {
        try {
          at.set(JSON.parse(buf.subarray(start + head.length, close + 1).toString('utf8')) as string, [start, end]);
        } catch {
          /* not a name: not a case line */
        }
      }
    }
    start = end + 1;
  }
  indexes.clear(); // one batch's index at a time: a 50,000-case store's is a few MB
  indexes.set(file, { stamp, at });
  return at;
}

/**
 * The case whose thread file is `threadFile` (absolute; in a batch folder), from its batch's
 * store, or undefined when the folder has no store or the store has no such case (or only a
 * line cut short by a crash).
 */
export async function storedCase(threadFile: string): Promise<StoredCase | undefined> {
  const store = path.join(path.dirname(threadFile), CASES_FILE);
  const at = (await indexOf(store))?.get(path.basename(threadFile));
  if (!at) return undefined;
  const h = await open(store, 'r');
  try {
    const buf = Buffer.alloc(at[1] - at[0]);
    await h.read(buf, 0, buf.length, at[0]);
    const text = buf.toString('utf8');
    if (!text.startsWith(linePrefix(path.basename(threadFile)))) return undefined;
    const c = JSON.parse(text) as StoredCase;
    return c && typeof c === 'object' && c.thread && typeof c.thread === 'object' ? c : undefined;
  } catch {
    return undefined;
  } finally {
    await h.close();
  }
}

const exists = (file: string) => stat(file).then(() => true, () => false);

/**
 * Writes a stored case's run file into `home` and its thread file at `threadFile` (absolute, in
 * its batch folder) when the thread file is not there and the batch's store has the case, so
 * that it opens like any thread. Resolves true when it wrote them. A run file already there is
 * kept; ids that cannot name files throw (HostError `bad_request`).
 */
export async function materializeCase(home: string, threadFile: string): Promise<boolean> {
  if (await exists(threadFile)) return false;
  const c = await storedCase(threadFile);
  if (!c) return false;
  // The run first: the thread file names it in its run refs.
  if (c.run) {
    const rf = runFile(home, c.thread.id, c.run.runId);
    if (!(await exists(rf))) {
      await mkdir(path.dirname(rf), { recursive: true });
      await writeFileAtomic(rf, JSON.stringify(c.run));
    }
  }
  if (await exists(threadFile)) return false;
  await writeFileAtomic(threadFile, serializeThread(c.thread));
  return true;
}
