/**
 * The edit log of one open thread: every change the store commits to the thread is appended as
 * one JSON line and flushed to disk (fdatasync) before the promise of that append resolves, so
 * a `thread.edit` is acknowledged only once it survives a crash of the host. Only the patches
 * are written — a keystroke in a 50 MB thread appends a few hundred bytes, never the thread.
 *
 * File: `$STEPWISE_HOME/edits/<logName(threadId)>-<pid>.jsonl` (the pid keeps two hosts on one
 * home — the desktop app and `stepwise run` — from writing or replaying each other's log).
 * Lines, in order ({@link LogLine}):
 * - `base`: the thread file, as identified by its `stamp` (inode, size, modification time),
 *   held the open thread's `version`; written when the first change after a save creates the
 *   log. (A stamp, not a hash of the document, so no keystroke ever reads the whole thread.)
 * - `edit`: one committed change, `version` = the version it made, its patches and `editId`;
 * - `saving`: a save of `version` (document `hash`, {@link docHash}) is about to replace the
 *   file; if the host dies between that save and the log's update, the marker tells replay
 *   where to start (the file's new stamp is not known before the save);
 * - `moved`: the thread file was moved or renamed to `file`.
 * After a save, the log is removed, or rewritten with only the changes the save did not hold.
 * Appends that arrive while one is being written are written and flushed together.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Patch } from 'immer';
import writeFileAtomic from 'write-file-atomic';
import { writerStart } from './log-writer';

/** First line of a log: which document the changes that follow apply to. */
export interface BaseLine {
  kind: 'base';
  /** Format version of the log. */
  v: 1;
  threadId: string;
  /** Absolute path of the thread file when the log was created. */
  file: string;
  /** Process id of the host writing the log. */
  pid: number;
  /** When that process started (log-writer.ts `writerStart`; absent where it cannot be known): a pid reused by another process, or a zombie, is not the writer. */
  start?: string;
  /** The open thread's version when the file had `stamp`. */
  version: number;
  /** The file's stamp (open-thread.ts `fileStamp`); null when it could not be read (never matches). */
  stamp: string | null;
}

/** One committed change: the patches that turned version `version - 1` into `version`. */
export interface EditLine {
  kind: 'edit';
  version: number;
  origin: string;
  editId?: string;
  /** A change that stands for several (the log rewritten from a file changed outside): their edit ids. */
  editIds?: string[];
  patches: Patch[];
}

/** A save of `version` (document `hash`) started. */
export interface SavingLine {
  kind: 'saving';
  version: number;
  hash: string;
}

/** The thread file moved to `file` (absolute). */
export interface MovedLine {
  kind: 'moved';
  file: string;
}

export type LogLine = BaseLine | EditLine | SavingLine | MovedLine;

const hashes = new WeakMap<object, string>();

/**
 * SHA-256 (hex) of a thread document as JSON (`JSON.stringify`, so what the file holds whatever
 * its indentation). Documents are immutable (Immer), so each one is hashed once.
 */
export function docHash(doc: object): string {
  let h = hashes.get(doc);
  if (h === undefined) {
    h = createHash('sha256').update(JSON.stringify(doc)).digest('hex');
    hashes.set(doc, h);
  }
  return h;
}

/** The file-name stem of a thread's logs: a hash of its id (ids may hold any character). */
export function logName(threadId: string): string {
  return createHash('sha256').update(threadId).digest('hex').slice(0, 32);
}

/** Path of this process's log of `threadId` in `dir`. */
export function logPath(dir: string, threadId: string, pid = process.pid): string {
  return path.join(dir, `${logName(threadId)}-${pid}.jsonl`);
}

/** Logs an open thread of this process writes (another host core in the same process must not replay them). */
const inUse = new Set<string>();

/** Whether `file` is the log of a thread open in this process. */
export function logInUse(file: string): boolean {
  return inUse.has(file);
}

const line = (l: LogLine): string => `${JSON.stringify(l)}\n`;

/** Make a new directory entry durable (Linux, macOS); platforms that cannot open a folder skip it. */
async function syncDir(dir: string): Promise<void> {
  let fh: fs.FileHandle | undefined;
  try {
    fh = await fs.open(dir, 'r');
    await fh.sync();
  } catch {
    // Windows cannot fsync a folder; NTFS journals the entry itself.
  } finally {
    await fh?.close().catch(() => {});
  }
}

/** Where a log starts: the open thread's version and the stamp of the file holding it. */
export interface LogBase {
  version: number;
  stamp: string | null;
}

interface Batch {
  text: string[];
  /** The batch starts a new log file (its first text is the base line). */
  create: boolean;
  done: Promise<void>;
}

/**
 * The edit log of one open thread (see the module comment). Calls are made in commit order;
 * the writes they start run one after another. A failed write rejects its callers' promises
 * and every later append (the caller saves the thread instead) until a save's {@link saved}
 * starts a clean log.
 */
export class EditLog {
  /** The log's base while a log exists on disk (or is being created), else undefined. */
  private base?: LogBase;
  /** The edit lines after the base (what a rewrite after a save keeps). */
  private edits: { version: number; text: string; ids: string[] }[] = [];
  private fh?: fs.FileHandle;
  private chain: Promise<void> = Promise.resolve();
  private batch?: Batch;
  private failed?: Error;

  /**
   * @param file path of this log ({@link logPath})
   * @param threadId the thread's id; `threadFile` its file (absolute)
   */
  constructor(
    readonly file: string,
    private readonly threadId: string,
    private threadFile: string,
  ) {
    inUse.add(file);
  }

  /**
   * Append a committed change; resolves when it is on disk. `base` gives the version the file
   * holds and its stamp — asked only when this change starts a new log.
   */
  append(edit: Omit<EditLine, 'kind'>, base: () => LogBase): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    const text = line({ kind: 'edit', ...edit });
    const create = !this.base;
    if (!this.base) {
      this.base = base();
      this.edits = [];
    }
    this.edits.push({ version: edit.version, text, ids: edit.editId === undefined ? [] : [edit.editId] });
    return this.write(create ? this.baseLine() + text : text, create);
  }

  /** A save of `version` (its document's hash) starts: record it (on disk when this resolves). No-op without a log. */
  saving(version: number, hash: () => string): Promise<void> {
    if (!this.base || this.failed) return Promise.resolve();
    return this.write(line({ kind: 'saving', version, hash: hash() }), false);
  }

  /**
   * A save of `version` is on disk, the file now has `stamp`: remove the log, or rewrite it
   * with the changes made after that version (a clean file, which also ends a failed state).
   */
  saved(version: number, stamp: string | undefined): Promise<void> {
    if (!this.base) return this.remove();
    const keep = this.edits.filter((e) => e.version > version);
    return keep.length ? this.rewrite({ version, stamp: stamp ?? null }, keep) : this.remove();
  }

  /**
   * The file changed outside the store and now has `stamp`; the open copy, at `version`, is
   * its document with `patches` applied (changes not saved yet; none: the file holds the open
   * copy). Rewrites the log from the file's content, so it still replays.
   */
  rebase(version: number, stamp: string | undefined, patches: Patch[]): Promise<void> {
    if (!patches.length) return this.remove();
    const ids = this.edits.flatMap((e) => e.ids); // a resend of one of them after a crash is still known
    const text = line({ kind: 'edit', version, origin: 'file', patches, ...(ids.length ? { editIds: ids } : {}) });
    return this.rewrite({ version: version - 1, stamp: stamp ?? null }, [{ version, text, ids }]);
  }

  private remove(): Promise<void> {
    this.batch = undefined;
    const had = this.base !== undefined;
    this.base = undefined;
    this.edits = [];
    return this.run(async () => {
      await this.closeHandle();
      if (had) await fs.rm(this.file, { force: true });
      this.failed = undefined;
    });
  }

  private rewrite(base: LogBase, edits: { version: number; text: string; ids: string[] }[]): Promise<void> {
    this.batch = undefined;
    this.base = base;
    this.edits = edits;
    const text = this.baseLine() + edits.map((e) => e.text).join('');
    return this.run(async () => {
      await this.closeHandle();
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await writeFileAtomic(this.file, text, { fsync: true });
      await syncDir(path.dirname(this.file));
      this.failed = undefined;
    });
  }

  /**
   * The host is about to rewrite the thread file itself, at the version it holds, as the
   * document of hash `hash` (a rename writes the new title into it: ThreadStore.relocate).
   * Recorded as a `saving` marker of the log's base version, so a replay after a crash between
   * that write and the log's update still finds where its edits start, and does not put them
   * aside as if the file had been changed outside. On disk when this resolves; no-op without a log.
   */
  rewriting(hash: () => string): Promise<void> {
    if (!this.base || this.failed) return Promise.resolve();
    return this.write(line({ kind: 'saving', version: this.base.version, hash: hash() }), false);
  }

  /** The thread file moved to `file` (absolute): recorded in the log when there is one. */
  moved(file: string): Promise<void> {
    this.threadFile = file;
    if (!this.base || this.failed) return Promise.resolve();
    return this.write(line({ kind: 'moved', file }), false);
  }

  /** Close the file (the log stays on disk if it holds changes not saved, for a replay). */
  close(): Promise<void> {
    this.batch = undefined;
    return this.run(async () => {
      await this.closeHandle();
      inUse.delete(this.file);
    });
  }

  private baseLine(): string {
    return line({ kind: 'base', v: 1, threadId: this.threadId, file: this.threadFile, pid: process.pid, start: writerStart(), ...this.base! });
  }

  private write(text: string, create: boolean): Promise<void> {
    if (this.batch && !create) {
      this.batch.text.push(text);
      return this.batch.done;
    }
    const b: Batch = { text: [text], create, done: Promise.resolve() };
    this.batch = b;
    b.done = this.run(async () => {
      if (this.batch === b) this.batch = undefined;
      if (this.failed) throw this.failed;
      if (b.create) {
        await this.closeHandle();
        await fs.mkdir(path.dirname(this.file), { recursive: true });
        this.fh = await fs.open(this.file, 'w');
      } else if (!this.fh) {
        this.fh = await fs.open(this.file, 'a');
      }
      await this.fh.write(b.text.join(''));
      await this.fh.datasync();
      if (b.create) await syncDir(path.dirname(this.file));
    });
    return b.done;
  }

  /** Run `op` after every earlier write; a failure rejects its promise and marks the log failed. */
  private run(op: () => Promise<void>): Promise<void> {
    const p = this.chain.then(op).catch(async (err: unknown) => {
      this.failed ??= err instanceof Error ? err : new Error(String(err));
      await this.closeHandle().catch(() => {});
      throw err;
    });
    this.chain = p.catch(() => {});
    return p;
  }

  private async closeHandle(): Promise<void> {
    const fh = this.fh;
    this.fh = undefined;
    await fh?.close();
  }
}
