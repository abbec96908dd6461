/**
 * Workspace paths: confining a client-given relative path to the workspace folder, and finding
 * the names on disk it means (compared after Unicode NFC). Used by the host's workspace
 * (main/core/workspace/) and by the agent-runner for an agent tool's `threadPath`. The rules for
 * new names: main/core/workspace/names.ts.
 */
import path from 'node:path';
import { lstat, realpath, readdir } from 'node:fs/promises';
import { WorkspaceError, quoted } from './workspace-error';

/** Longest name of one file or folder, in UTF-8 bytes (ext4, APFS and most others). */
export const MAX_NAME_BYTES = 255;

/** Length of `s` in UTF-8 bytes. */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Normalises a workspace-relative path ('/' or '\' separators) to its '/'-joined segments.
 * Refuses NUL bytes, absolute paths (POSIX, drive letters, UNC) and '..' segments.
 */
export function relativeSegments(relPath: string): string[] {
  if (typeof relPath !== 'string') throw new WorkspaceError('invalid', 'a workspace path must be a string');
  if (relPath.includes('\0')) throw new WorkspaceError('invalid', `refused path ${quoted(relPath)}: it contains a NUL byte`);
  const p = relPath.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[a-zA-Z]:/.test(p)) {
    throw new WorkspaceError('outside', `refused path ${quoted(relPath)}: absolute paths are not allowed; give a path relative to the workspace`);
  }
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new WorkspaceError('outside', `refused path ${quoted(relPath)}: '..' would leave the workspace`);
  return segments;
}

/**
 * The absolute path of `relPath` inside `root`, after checking that the deepest part of it that
 * exists really lies inside the workspace (so a symlink pointing outside is refused). Each name
 * is the one on disk that equals it after NFC (an NFD `café.json` made on another machine opens
 * as `café.json`); a name not on disk is given in NFC. Refuses a name longer than 255 bytes (no
 * file system holds it) and a loop of symbolic links. Errors name `relPath`, never `root`.
 */
export async function resolveInside(root: string, relPath: string): Promise<string> {
  const segments = relativeSegments(relPath);
  const long = segments.find((s) => utf8Length(s) > MAX_NAME_BYTES);
  if (long) {
    throw new WorkspaceError('invalid', `refused path ${quoted(relPath)}: the name ${quoted(long, 40)} is ${utf8Length(long)} bytes long in UTF-8; a file or folder name may be at most ${MAX_NAME_BYTES} bytes`);
  }
  const abs = path.join(root, ...(await namesOnDisk(root, segments)));
  const realRoot = await realpath(root);
  let probe = abs;
  for (;;) {
    let real: string;
    try {
      real = await realpath(probe);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new WorkspaceError('invalid', `refused path ${quoted(relPath)}: it goes through a loop of symbolic links`);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || probe === root) throw err;
      probe = path.dirname(probe);
      continue;
    }
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
      throw new WorkspaceError('outside', `refused path ${quoted(relPath)}: it leads outside the workspace (through a symbolic link)`);
    }
    return abs;
  }
}

/** True when something (a file, folder or link) is at `abs`. */
async function present(abs: string): Promise<boolean> {
  return lstat(abs).then(
    () => true,
    () => false,
  );
}

/**
 * The names on disk `segments` mean under `root`: a segment that exists is kept as given;
 * otherwise the entry of its folder equal to it after NFC, or else its NFC form (a new name).
 */
async function namesOnDisk(root: string, segments: string[]): Promise<string[]> {
  if (await present(path.join(root, ...segments))) return segments;
  const out: string[] = [];
  let dir = root;
  for (const [i, segment] of segments.entries()) {
    let name = segment;
    if (!(await present(path.join(dir, segment)))) {
      const nfc = segment.normalize('NFC');
      const entries = await readdir(dir).catch(() => undefined);
      if (!entries) return [...out, ...segments.slice(i).map((s) => s.normalize('NFC'))];
      name = entries.find((n) => n.normalize('NFC') === nfc) ?? nfc;
    }
    out.push(name);
    dir = path.join(dir, name);
  }
  return out;
}
