/**
 * The built-in tools that read the working directory: `read` (numbered lines, a line range,
 * a size cap), `ls`, `glob` (tinyglobby) and `grep` (a JavaScript regular expression over
 * files, capped). Paths are confined by confine.ts; results name paths relative to it.
 */
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolOutput } from '../../../shared/thread/messages';
import { toolErrorOutput, toolOutput } from '../../../shared/thread/tool-output';
import type { FileRead, GrepMatches, Listing } from '../../../shared/tools/builtin-results';
import { fsProblem, resolveToolPath, shownPath } from './confine';

/** Largest file `read` and `grep` open, bytes. */
export const MAX_READ_BYTES = 2 * 1024 * 1024;
/** Lines `read` returns when no limit is given. */
export const DEFAULT_READ_LINES = 2000;
/** Longest line `read` returns before cutting it, characters. */
const MAX_LINE_CHARS = 2000;
/** Most entries `ls`/`glob` list and matches `grep` returns. */
export const MAX_LIST = 1000;
export const MAX_MATCHES = 500;

type Args = Record<string, unknown>;
const s = (v: unknown, dflt = ''): string => (typeof v === 'string' ? v : dflt);

/** `read`: lines `offset` (1-based) to `offset + limit - 1`, each as `<n>\t<text>`. */
export async function readTool(cwd: string, a: Args): Promise<ToolOutput> {
  const given = s(a.path);
  try {
    const abs = await resolveToolPath(cwd, given);
    const st = await stat(abs);
    if (st.isDirectory()) return toolErrorOutput(`read "${given}": it is a folder; use ls.`);
    if (st.size > MAX_READ_BYTES) return toolErrorOutput(`read "${given}": the file is ${st.size} bytes; read opens at most ${MAX_READ_BYTES} bytes.`);
    const lines = (await readFile(abs, 'utf8')).split('\n');
    if (lines.at(-1) === '') lines.pop();
    const offset = typeof a.offset === 'number' ? a.offset : 1;
    const limit = typeof a.limit === 'number' ? a.limit : DEFAULT_READ_LINES;
    if (offset > Math.max(lines.length, 1)) return toolErrorOutput(`read "${given}": offset ${offset} is past the end (the file has ${lines.length} lines).`);
    const picked = lines.slice(offset - 1, offset - 1 + limit);
    const body = picked.map((l, i) => `${offset + i}\t${l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}… (line cut)` : l}`).join('\n');
    const end = offset - 1 + picked.length;
    const more = end < lines.length ? `\n(lines ${offset}–${end} of ${lines.length}; read on with offset ${end + 1})` : '';
    return { ...toolOutput(body + more), structuredContent: { kind: 'file', path: shownPath(cwd, abs), offset, lines: picked.length, totalLines: lines.length } satisfies FileRead };
  } catch (err) {
    return toolErrorOutput(`read ${fsProblem(given, err)}`);
  }
}

/** `ls`: the entries of one folder, sorted, folders ending with "/". */
export async function lsTool(cwd: string, a: Args): Promise<ToolOutput> {
  const given = s(a.path, '.');
  try {
    const abs = await resolveToolPath(cwd, given);
    const entries = await readdir(abs, { withFileTypes: true });
    const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
    const shown = names.slice(0, MAX_LIST);
    const more = names.length > MAX_LIST ? `\n(${names.length - MAX_LIST} more not listed)` : '';
    return { ...toolOutput(shown.join('\n') + more || '(empty folder)'), structuredContent: { kind: 'list', path: shownPath(cwd, abs), entries: shown } satisfies Listing };
  } catch (err) {
    return toolErrorOutput(`ls ${fsProblem(given, err)}`);
  }
}

/**
 * Files under `base` matching `pattern`, as absolute paths, sorted; only those that really lie
 * inside `cwd`. tinyglobby starts its crawl at the pattern's fixed prefix (`a/` of `a/*`) and
 * follows a symbolic link there whatever `followSymbolicLinks` says, so each path found is
 * resolved (links followed) and one that leads outside `cwd` is dropped.
 */
async function globFiles(cwd: string, base: string, pattern: string): Promise<string[]> {
  // Loaded on first use: an ordinary run's process never loads it.
  const { glob: tinyglob } = await import('tinyglobby');
  const found = await tinyglob(pattern, { cwd: base, dot: false, followSymbolicLinks: false, onlyFiles: true, ignore: ['**/node_modules/**', '**/.git/**'] });
  const realCwd = await realpath(cwd);
  const inside = await Promise.all(
    found.map(async (f) => {
      const abs = path.join(base, f);
      const real = await realpath(abs).catch(() => undefined);
      return real !== undefined && (real === realCwd || real.startsWith(realCwd + path.sep)) ? abs : undefined;
    }),
  );
  return inside.filter((f): f is string => f !== undefined).sort();
}

function checkPattern(pattern: string): string | undefined {
  if (!pattern) return 'the pattern is empty';
  if (path.isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) return `refused pattern "${pattern}": it must stay inside the working directory (no absolute path, no "..")`;
  return undefined;
}

/** `glob`: files matching a pattern under `path` (default the working directory). */
export async function globTool(cwd: string, a: Args): Promise<ToolOutput> {
  const given = s(a.path, '.');
  const pattern = s(a.pattern);
  const bad = checkPattern(pattern);
  if (bad) return toolErrorOutput(`glob: ${bad}.`);
  try {
    const base = await resolveToolPath(cwd, given);
    const files = (await globFiles(cwd, base, pattern)).map((f) => shownPath(cwd, f));
    const shown = files.slice(0, MAX_LIST);
    const more = files.length > MAX_LIST ? `\n(${files.length - MAX_LIST} more not listed)` : '';
    return { ...toolOutput(shown.join('\n') + more || 'No files match.'), structuredContent: { kind: 'list', path: shownPath(cwd, base), entries: shown } satisfies Listing };
  } catch (err) {
    return toolErrorOutput(`glob ${fsProblem(given, err)}`);
  }
}

/** `grep`: lines matching a regular expression, as `path:line: text`, at most MAX_MATCHES. */
export async function grepTool(cwd: string, a: Args): Promise<ToolOutput> {
  const given = s(a.path, '.');
  let re: RegExp;
  try {
    re = new RegExp(s(a.pattern), a.ignore_case === true ? 'i' : '');
  } catch (err) {
    return toolErrorOutput(`grep: the pattern is not a valid regular expression: ${(err as Error).message}`);
  }
  const filter = s(a.glob, '**/*');
  const bad = checkPattern(filter);
  if (bad) return toolErrorOutput(`grep: ${bad}.`);
  try {
    const base = await resolveToolPath(cwd, given);
    const files = (await stat(base)).isDirectory() ? await globFiles(cwd, base, filter) : [base];
    const matches: string[] = [];
    let total = 0;
    for (const file of files) {
      const st = await lstat(file).catch(() => undefined); // a symbolic link is not followed
      if (!st?.isFile() || st.size > MAX_READ_BYTES) continue;
      const text = await readFile(file, 'utf8').catch(() => '');
      if (text.includes('\0')) continue; // binary
      text.split('\n').forEach((line, i) => {
        if (!re.test(line)) return;
        total++;
        if (matches.length < MAX_MATCHES) matches.push(`${shownPath(cwd, file)}:${i + 1}: ${line.slice(0, 500)}`);
      });
    }
    const more = total > MAX_MATCHES ? `\n(${total - MAX_MATCHES} more matches not shown)` : '';
    return { ...toolOutput(matches.join('\n') + more || 'No matches.'), structuredContent: { kind: 'matches', matches: total } satisfies GrepMatches };
  } catch (err) {
    return toolErrorOutput(`grep ${fsProblem(given, err)}`);
  }
}
