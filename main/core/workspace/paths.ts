/**
 * Workspace paths: confining a client-given relative path to the workspace folder, and turning
 * thread titles into file names that are legal on Windows, macOS and Linux.
 */
import path from 'node:path';
import { realpath, readdir } from 'node:fs/promises';

/** A workspace operation refused or failed; `code` tells which. Messages name the relative path. */
export class WorkspaceError extends Error {
  constructor(
    readonly code: 'outside' | 'invalid' | 'not_found' | 'exists' | 'malformed',
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

/**
 * Normalises a workspace-relative path ('/' or '\' separators) to its '/'-joined segments.
 * Refuses NUL bytes, absolute paths (POSIX, drive letters, UNC) and '..' segments.
 */
export function relativeSegments(relPath: string): string[] {
  if (typeof relPath !== 'string') throw new WorkspaceError('invalid', 'a workspace path must be a string');
  if (relPath.includes('\0')) throw new WorkspaceError('invalid', `refused path ${JSON.stringify(relPath)}: it contains a NUL byte`);
  const p = relPath.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[a-zA-Z]:/.test(p)) {
    throw new WorkspaceError('outside', `refused path ${JSON.stringify(relPath)}: absolute paths are not allowed; give a path relative to the workspace`);
  }
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new WorkspaceError('outside', `refused path ${JSON.stringify(relPath)}: '..' would leave the workspace`);
  return segments;
}

/**
 * The absolute path of `relPath` inside `root`, after checking that the deepest part of it that
 * exists really lies inside the workspace (so a symlink pointing outside is refused).
 */
export async function resolveInside(root: string, relPath: string): Promise<string> {
  const segments = relativeSegments(relPath);
  const abs = path.join(root, ...segments);
  const realRoot = await realpath(root);
  let probe = abs;
  for (;;) {
    try {
      const real = await realpath(probe);
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
        throw new WorkspaceError('outside', `refused path ${JSON.stringify(relPath)}: it leads outside the workspace (through a symbolic link to ${real})`);
      }
      return abs;
    } catch (err) {
      if (err instanceof WorkspaceError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      if (probe === root) throw err;
      probe = path.dirname(probe);
    }
  }
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
/** Longest file-name stem kept (in UTF-16 units), well under the 255-byte limit of most file systems. */
const MAX_STEM = 120;

/**
 * A file-name stem for a title: characters illegal on Windows or macOS (`<>:"/\|?*`, control
 * characters) become '_', trailing dots/spaces are trimmed (Windows), a leading dot is replaced
 * (no hidden files), reserved Windows names get a '_' suffix, and an empty result is "Untitled".
 */
export function safeStem(title: string): string {
  // eslint-disable-next-line no-control-regex
  let s = title.replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '_').trim();
  s = s.replace(/^\.+/, (dots) => '_'.repeat(dots.length));
  if (s.length > MAX_STEM) s = s.slice(0, MAX_STEM);
  s = s.replace(/[. ]+$/, '');
  if (!s) s = 'Untitled';
  if (WINDOWS_RESERVED.test(s)) s = `${s}_`;
  return s;
}

/**
 * A name `<stem><ext>` not yet used in `dir` (compared case-insensitively, as on macOS and
 * Windows); collisions get ` 2`, ` 3`… `except` is a name that may be reused (the file itself).
 */
export async function uniqueName(dir: string, stem: string, ext: string, except?: string): Promise<string> {
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {}
  const taken = new Set(names.filter((n) => n !== except).map((n) => n.toLowerCase()));
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${stem}${ext}` : `${stem} ${n}${ext}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** True when `stem` is the file stem `safeStem(title)` would give, possibly with a collision suffix. */
export function stemMatchesTitle(stem: string, title: string): boolean {
  const base = safeStem(title);
  return stem === base || new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\d+$`).test(stem);
}
