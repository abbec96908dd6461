/**
 * Replaying edit logs (edit-log.ts) left by a host that stopped before saving: at start for
 * every log, and when a thread is opened for the logs of that thread. A log is replayed onto
 * the thread file when the file is still the one the log starts from (its `base` stamp), or
 * holds the document of a `saving` marker (a save that landed before the log was updated);
 * the result is saved atomically and the log removed. A last line whose write did not finish
 * (the host died during the append, before acknowledging it) is ignored with a note. A log that cannot be applied —
 * the file was changed outside Stepwise meanwhile, a patch no longer applies, a line is
 * damaged — is never dropped: it is moved to `edits/aside/` and reported.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { applyPatches, type Patch } from 'immer';
import type { Thread } from '../../../shared/thread/schema';
import { validateThread } from '../../../shared/thread/validate';
import type { ThreadIO } from './thread-store-options';
import { docHash, logInUse, logName, type BaseLine, type EditLine, type LogLine } from './edit-log';
import { fileStamp } from './open-thread';
import { writerRuns } from './log-writer';

/** What recovering one log did. `edits`: how many acknowledged edits it held after the file's state. */
export type Recovery =
  | { kind: 'applied'; log: string; threadId: string; file: string; edits: number; editIds: string[]; notes: string[] }
  /** The file already held every change in the log; the log was removed. */
  | { kind: 'current'; log: string; threadId: string; file: string; editIds: string[]; notes: string[] }
  /** Left in place: its thread file is not where the log says (replayed when the thread is opened), or another live host writes it. */
  | { kind: 'waiting'; log: string; threadId?: string; file?: string; reason: string }
  /** Not applied: moved to `aside` (relative to the Stepwise home), `reason` says why (no absolute paths). */
  | { kind: 'aside'; log: string; threadId?: string; file?: string; edits: number; reason: string; aside: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkLine(v: unknown): LogLine | undefined {
  if (!isRecord(v)) return undefined;
  const num = (x: unknown) => Number.isInteger(x) && (x as number) >= 0;
  switch (v.kind) {
    case 'base':
      return v.v === 1 && typeof v.threadId === 'string' && typeof v.file === 'string' && num(v.version) && (v.stamp === null || typeof v.stamp === 'string') && (v.start === undefined || typeof v.start === 'string')
        ? (v as unknown as BaseLine)
        : undefined;
    case 'edit':
      return num(v.version) && Array.isArray(v.patches) && typeof v.origin === 'string' && (v.editId === undefined || typeof v.editId === 'string') && (v.editIds === undefined || (Array.isArray(v.editIds) && v.editIds.every((x) => typeof x === 'string')))
        ? (v as unknown as EditLine)
        : undefined;
    case 'saving':
      return num(v.version) && typeof v.hash === 'string' ? (v as unknown as LogLine) : undefined;
    case 'moved':
      return typeof v.file === 'string' ? (v as unknown as LogLine) : undefined;
    default:
      return undefined;
  }
}

/**
 * Parse a log's text: newline-terminated lines only. A last line without its newline, or one
 * that does not parse, is a write that did not finish (never acknowledged): left out, with a
 * note. Any other damage, or a first line that is not a `base`, is a `problem`.
 */
export function parseEditLog(text: string): { lines: LogLine[]; base: BaseLine; notes: string[] } | { problem: string } {
  const raw = text.split('\n');
  const notes: string[] = [];
  const tail = raw.pop(); // '' when the text ends with a newline
  if (tail) notes.push('ignored the last line: its write did not finish (the host stopped before acknowledging that edit)');
  const lines: LogLine[] = [];
  for (const [i, s] of raw.entries()) {
    let l: LogLine | undefined;
    try {
      l = checkLine(JSON.parse(s));
    } catch {
      l = undefined;
    }
    if (!l) {
      if (i === raw.length - 1 && !tail) {
        notes.push('ignored the last line: it is damaged (the host stopped while writing it, before acknowledging that edit)');
        break;
      }
      return { problem: `line ${i + 1} of the edit log is damaged` };
    }
    lines.push(l);
  }
  const base = lines[0];
  if (base?.kind !== 'base') return { problem: lines.length ? 'the edit log does not start with its base line' : 'the edit log is empty' };
  return { lines, base, notes };
}

/** The thread file a log's changes belong to: the last `moved` line's, else the base's. */
export function logTarget(lines: LogLine[]): string {
  let file = '';
  for (const l of lines) if (l.kind === 'base' || l.kind === 'moved') file = l.file;
  return file;
}

/**
 * Apply a parsed log to `doc`, the thread file's document, read when the file had `stamp`:
 * from the base when the file is the one the log started from (same stamp), else from the last
 * `saving` marker whose document it holds (same hash). `edits`: the lines applied. A `problem`
 * (the file is neither, a version is missing, a patch fails, the result is not a valid
 * thread) changes nothing.
 */
export function replayEdits(doc: Thread, lines: LogLine[], stamp: string | undefined): { doc: Thread; edits: EditLine[]; skipped: EditLine[] } | { problem: string; edits: number } {
  const base = lines[0] as BaseLine;
  const all = lines.filter((l): l is EditLine => l.kind === 'edit');
  let start: number | undefined = stamp !== undefined && stamp === base.stamp ? base.version : undefined;
  const markers = lines.filter((l) => l.kind === 'saving');
  if (start === undefined && markers.length) {
    const hash = docHash(doc);
    for (const l of markers) if (l.hash === hash) start = l.version;
  }
  if (start === undefined) {
    return { problem: 'the thread file changed outside Stepwise after these edits were made (it no longer holds the version they apply to)', edits: all.length };
  }
  const from = start;
  const todo = all.filter((e) => e.version > from);
  let next = doc;
  for (const [i, e] of todo.entries()) {
    if (e.version !== from + i + 1) {
      return { problem: `version ${from + i + 1} is missing from the edit log (the file was changed outside Stepwise between these edits)`, edits: todo.length };
    }
    try {
      next = applyPatches(next, e.patches as Patch[]);
    } catch (err) {
      return { problem: `edit ${e.version} no longer applies (${(err as Error).message})`, edits: todo.length };
    }
  }
  const checked = validateThread(next);
  if (!checked.ok) return { problem: `the edits would make the thread invalid at ${checked.errors[0].pointer || '/'}`, edits: todo.length };
  return { doc: next, edits: todo, skipped: all.filter((e) => e.version <= from) };
}

/** The pid in a log's name `<name>-<pid>.jsonl`, or undefined for another file. */
function pidOf(name: string): number | undefined {
  const m = /^[0-9a-f]{32}-(\d+)\.jsonl$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** The writer's start a log's base line records (undefined when absent or unreadable: the pid alone is checked). */
async function writerStartOf(log: string): Promise<string | undefined> {
  let first: string;
  try {
    first = (await fs.readFile(log, 'utf8')).split('\n', 1)[0];
  } catch {
    return undefined;
  }
  try {
    const base: unknown = JSON.parse(first);
    return isRecord(base) && base.kind === 'base' && typeof base.start === 'string' ? base.start : undefined;
  } catch {
    return undefined;
  }
}

/** Move `log` into `<dir>/aside/`; returns its new path relative to the folder above `dir` (the home). */
async function putAside(dir: string, log: string): Promise<string> {
  const asideDir = path.join(dir, 'aside');
  await fs.mkdir(asideDir, { recursive: true });
  const name = `${path.basename(log, '.jsonl')}-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
  await fs.rename(log, path.join(asideDir, name));
  return [path.basename(dir), 'aside', name].join('/');
}

const errCode = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/**
 * Recover one log: replay it onto `target.file` (loaded unless `target.doc` is given, read when
 * the file had `target.stamp`), save the file, remove the log. `waitForFile`: a file that is
 * missing or holds another thread leaves the log in place (`waiting`: the thread may have moved)
 * instead of putting it aside.
 */
async function recoverLog(dir: string, log: string, io: ThreadIO, target: { file?: string; doc?: Thread; stamp?: string; waitForFile?: boolean }): Promise<Recovery> {
  const aside = async (reason: string, edits: number, threadId?: string, file?: string): Promise<Recovery> => ({ kind: 'aside', log, threadId, file, edits, reason, aside: await putAside(dir, log) });
  const parsed = parseEditLog(await fs.readFile(log, 'utf8'));
  if ('problem' in parsed) return aside(parsed.problem, 0);
  const { lines, base, notes } = parsed;
  const count = lines.filter((l) => l.kind === 'edit').length;
  const file = target.file ?? logTarget(lines);
  const moved: Recovery = { kind: 'waiting', log, threadId: base.threadId, file, reason: 'its thread is not in the file the log names; the edits are replayed when the thread is opened' };
  let doc = target.doc;
  let stamp = target.stamp;
  if (!doc) {
    stamp = await fileStamp(file); // before reading, as the store does
    if (target.waitForFile && stamp === undefined) return moved;
    try {
      doc = await io.load(file);
    } catch (err) {
      return aside(`the thread file does not load (${(err as Error).message.split(file).join(path.basename(file))})`, count, base.threadId, file);
    }
  }
  if (doc.id !== base.threadId && target.waitForFile) return moved;
  if (doc.id !== base.threadId) return aside(`the thread file now holds another thread (id ${doc.id})`, count, base.threadId, file);
  const r = replayEdits(doc, lines, stamp);
  if ('problem' in r) return aside(r.problem, r.edits, base.threadId, file);
  const editIds = [...r.skipped, ...r.edits].flatMap((e) => [...(e.editIds ?? []), ...(e.editId ? [e.editId] : [])]);
  if (r.edits.length) {
    try {
      await io.save(file, r.doc);
    } catch (err) {
      return aside(`the thread file could not be written (${errCode(err)})`, r.edits.length, base.threadId, file);
    }
  }
  await fs.rm(log, { force: true });
  return r.edits.length ? { kind: 'applied', log, threadId: base.threadId, file, edits: r.edits.length, editIds, notes } : { kind: 'current', log, threadId: base.threadId, file, editIds, notes };
}

/** Logs in `dir` that this host may recover: not written by another running host (or an open thread of this process). `threadId` narrows to one thread's. */
async function recoverable(dir: string, threadId?: string): Promise<{ mine: string[]; busy: string[] }> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return { mine: [], busy: [] };
  }
  const stem = threadId === undefined ? undefined : `${logName(threadId)}-`;
  const mine: string[] = [];
  const busy: string[] = [];
  for (const name of names.sort()) {
    const pid = pidOf(name);
    if (pid === undefined || (stem && !name.startsWith(stem))) continue;
    const file = path.join(dir, name);
    (logInUse(file) || (await writerRuns(pid, await writerStartOf(file))) ? busy : mine).push(file);
  }
  return { mine, busy };
}

/**
 * At host start: recover every log in `dir` (the home's `edits/` folder). Logs of a running
 * host (another process on the same home) are left alone. Never throws for one bad log: its
 * failure is reported as `aside` or, when even that fails, `waiting`.
 */
export async function recoverEditLogs(dir: string, io: ThreadIO): Promise<Recovery[]> {
  const { mine, busy } = await recoverable(dir);
  const out: Recovery[] = busy.map((log) => ({ kind: 'waiting', log, reason: 'another running Stepwise host writes it' }));
  for (const log of mine) out.push(await recoverLog(dir, log, io, { waitForFile: true }).catch((err: unknown) => ({ kind: 'waiting' as const, log, reason: `it could not be read or moved (${errCode(err)})` })));
  return out;
}

/**
 * When thread `doc` is opened from `file` (read when it had `stamp`): recover the logs of that thread (left by a host that
 * stopped, or waiting for their moved file). Returns the document the file holds afterwards, its
 * stamp, and what each log did; a log that cannot be applied is put aside, never left to be overwritten.
 */
export async function recoverOnOpen(dir: string, file: string, doc: Thread, stamp: string | undefined, io: ThreadIO): Promise<{ doc: Thread; stamp: string | undefined; recoveries: Recovery[] }> {
  const { mine } = await recoverable(dir, doc.id);
  const recoveries: Recovery[] = [];
  let current = { doc, stamp };
  for (const log of mine) {
    const r = await recoverLog(dir, log, io, { file, ...current });
    if (r.kind === 'applied') current = { stamp: await fileStamp(file), doc: await io.load(file) };
    recoveries.push(r);
  }
  return { ...current, recoveries };
}
