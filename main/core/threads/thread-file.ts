/**
 * Thread files on disk (docs/architecture.md#the-thread-document): load = read + parse + detect a foreign format (import) +
 * migrate + validate; save = validate + atomic write (temp file, fsync, rename) of 2-space JSON.
 * A file that fails to load is never written by this module. A thread that repeats a message id,
 * tool call id or tool name still loads, with the repeats in `idProblems`: the app opens it
 * read-only and offers new ids (nothing in the file is lost), `stepwise validate` fails on them.
 */
import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { fsErrorPhrase } from '../fs-errors';
import type { Thread } from '../../../shared/thread/schema';
import { parseJsonText } from '../../../shared/thread/json-text';
import { duplicateProblems, validateThread, type ThreadProblem } from '../../../shared/thread/validate';
import { unsupportedVersion } from '../../../shared/thread/migrate';
import { detectFormat, importThread, ImportError, FORMAT_NAMES, type ThreadFormat } from '../../../shared/thread/import';

const one = (p: ThreadProblem): string => (p.pointer ? `${p.pointer}: ${p.message}` : p.message);

/** Why a thread file could not be loaded or saved. */
export type ThreadFileErrorKind = 'io' | 'syntax' | 'truncated' | 'format' | 'schema';

/**
 * A thread file that cannot be loaded (or a thread that cannot be saved). `message` names the
 * file and every problem as `pointer: message`; syntax errors carry `line`/`column` (1-based).
 */
export class ThreadFileError extends Error {
  constructor(
    readonly file: string,
    readonly kind: ThreadFileErrorKind,
    readonly problems: ThreadProblem[],
    readonly position?: { line: number; column: number },
  ) {
    super(`${file}: ${problems.length === 1 ? one(problems[0]) : problems.map((p) => `\n  ${one(p)}`).join('')}`);
    this.name = 'ThreadFileError';
  }
}

/** `title`: the title an imported document gets when it has none (e.g. the file name); `format`: skip detection. */
export interface LoadOptions {
  title?: string;
  format?: ThreadFormat;
}

/** What a load found besides the thread: the source format (anything but 'stepwise' was imported), repeated ids. */
export interface LoadedThreadFile {
  thread: Thread;
  format: ThreadFormat;
  /** One problem per repeated use of a message id, tool call id or tool name (validate.ts `duplicateProblems`). */
  idProblems: ThreadProblem[];
}

/** Reads, imports or migrates, and validates a thread file. Throws ThreadFileError. */
export async function loadThreadFile(path: string, opts: LoadOptions = {}): Promise<Thread> {
  return (await loadThreadFileDetailed(path, opts)).thread;
}

/** `loadThreadFile`, also telling the format the file was in. */
export async function loadThreadFileDetailed(path: string, opts: LoadOptions = {}): Promise<LoadedThreadFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a folder, not a thread file' : fsErrorPhrase(e);
    throw new ThreadFileError(path, 'io', [{ pointer: '', message: why }]);
  }
  return parseThreadText(path, text, opts);
}

/** The load pipeline on text already read (`file` names it in errors). Throws ThreadFileError. */
export function parseThreadText(file: string, text: string, opts: LoadOptions = {}): LoadedThreadFile {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const p = parsed.problem;
    throw new ThreadFileError(file, p.truncated ? 'truncated' : 'syntax', [{ pointer: '', message: `line ${p.line}, column ${p.column}: ${p.message}` }], { line: p.line, column: p.column });
  }
  const format = opts.format ?? detectFormat(parsed.value);
  if (format === 'unknown') {
    try {
      importThread(parsed.value);
    } catch (err) {
      if (err instanceof ImportError) throw new ThreadFileError(file, 'format', err.problems);
      throw err;
    }
  }
  const newer = unsupportedVersion(parsed.value);
  if (newer) throw new ThreadFileError(file, 'schema', [{ pointer: '/version', message: newer }]);
  try {
    const thread = importThread(parsed.value, { format, title: opts.title });
    return { thread, format, idProblems: duplicateProblems(thread) };
  } catch (err) {
    if (err instanceof ImportError) {
      const problems = format === 'stepwise' ? err.problems : err.problems.map((p) => ({ ...p, message: `${p.message} (reading it as ${FORMAT_NAMES[format]})` }));
      throw new ThreadFileError(file, format === 'stepwise' ? 'schema' : 'format', problems);
    }
    throw err;
  }
}

/** Serialises a thread as the file holds it: 2-space JSON with a trailing newline. */
export function serializeThread(thread: Thread): string {
  return `${JSON.stringify(thread, null, 2)}\n`;
}

/**
 * Validates and writes a thread atomically (write-file-atomic: temp file in the same folder,
 * fsync, rename), so a crash mid-write leaves the old file whole. Throws ThreadFileError
 * (kind 'schema') without touching the file when the thread is invalid.
 */
export async function saveThreadFile(path: string, thread: Thread): Promise<void> {
  const checked = validateThread(thread);
  if (!checked.ok) throw new ThreadFileError(path, 'schema', checked.errors);
  await writeFileAtomic(path, serializeThread(thread), { encoding: 'utf8', fsync: true });
}
