/**
 * The thread-file load pipeline on text already read (docs/architecture.md#the-thread-document):
 * parse + detect a foreign format (import) + migrate + validate, with errors that name the file
 * as the caller gives it (a workspace-relative path) and every problem as `pointer: message`.
 * No Node import: the host's thread files (main/core/threads/thread-file.ts) and the
 * agent-runner's agent-tool threads load through it.
 */
import type { Thread } from './schema';
import { parseJsonText } from './json-text';
import { duplicateProblems, type ThreadProblem } from './validate';
import { dataProblems } from './base64';
import { unsupportedVersion } from './migrate';
import { detectFormat, importThread, ImportError, FORMAT_NAMES, type ThreadFormat } from './import';

const one = (p: ThreadProblem): string => (p.pointer ? `${p.pointer}: ${p.message}` : p.message);

/** Why a thread file could not be loaded or saved. */
export type ThreadFileErrorKind = 'io' | 'syntax' | 'truncated' | 'format' | 'schema';

/** Every problem as `pointer: message`: one on the line, several each on a line of its own. */
const problemList = (problems: ThreadProblem[]): string => (problems.length === 1 ? one(problems[0]) : problems.map((p) => `\n  ${one(p)}`).join(''));

/**
 * A thread file that cannot be loaded (or a thread that cannot be saved). `message` names the
 * file and every problem as `pointer: message` (`detail`: the same without the file); syntax
 * errors carry `line`/`column` (1-based).
 */
export class ThreadFileError extends Error {
  constructor(
    readonly file: string,
    readonly kind: ThreadFileErrorKind,
    readonly problems: ThreadProblem[],
    readonly position?: { line: number; column: number },
  ) {
    super(`${file}: ${problemList(problems)}`);
    this.name = 'ThreadFileError';
  }

  /** The problems without the file name, for a message that names the file already. */
  get detail(): string {
    return problemList(this.problems);
  }
}

/** `title`: the title an imported document gets when it has none (e.g. the file name); `format`: skip detection. */
export interface LoadOptions {
  title?: string;
  format?: ThreadFormat;
}

/** What a load found besides the thread: the source format (anything but 'stepwise' was imported). */
export interface LoadedThreadFile {
  thread: Thread;
  format: ThreadFormat;
  /** One problem per repeated use of a message id, tool call id or tool name (validate.ts `duplicateProblems`). */
  idProblems: ThreadProblem[];
  /** One problem per image, audio, PDF or resource blob whose data is not base64 (base64.ts `dataProblems`). */
  dataProblems: ThreadProblem[];
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
    return { thread, format, idProblems: duplicateProblems(thread), dataProblems: dataProblems(thread) };
  } catch (err) {
    if (err instanceof ImportError) {
      const problems = format === 'stepwise' ? err.problems : err.problems.map((p) => ({ ...p, message: `${p.message} (reading it as ${FORMAT_NAMES[format]})` }));
      throw new ThreadFileError(file, format === 'stepwise' ? 'schema' : 'format', problems);
    }
    throw err;
  }
}
