/**
 * Confines a built-in tool's path to the thread's working directory, by the workspace's rules
 * (shared/workspace/paths.node.ts): `..`, an absolute path outside it and a symbolic link leading
 * out are refused. An absolute path inside the working directory is taken as relative to it.
 * Errors name the path as given, never the working directory.
 */
import path from 'node:path';
import { lstat, realpath } from 'node:fs/promises';
import { resolveInside } from '../../../shared/workspace/paths.node.js';
import { WorkspaceError } from '../../../shared/workspace/workspace-error';
import { fsErrorPhrase, isFsError } from '../../../shared/fs-errors';

/** A refused or unreadable path; its message is safe to send to the model. */
export class ToolPathError extends Error {}

/** The absolute path of `given` inside `cwd`. Throws ToolPathError when it is refused. */
export async function resolveToolPath(cwd: string, given: string): Promise<string> {
  let rel = given;
  if (path.isAbsolute(given)) {
    const inside = path.relative(cwd, path.resolve(given));
    if (inside === '') rel = '.';
    else if (inside.startsWith('..') || path.isAbsolute(inside)) {
      throw new ToolPathError(`refused path "${given}": it is outside the working directory; give a path relative to it`);
    } else rel = inside;
  }
  if (rel === '.' || rel === '' || rel === './') return cwd;
  let abs: string;
  try {
    abs = await resolveInside(cwd, rel);
  } catch (err) {
    if (err instanceof WorkspaceError) throw new ToolPathError(err.message.replace(/the workspace/g, 'the working directory'));
    throw new ToolPathError(`path "${given}": ${isFsError(err) ? fsErrorPhrase(err) : String(err)}`);
  }
  // A dangling symbolic link (anywhere on the path) passes the check above, but a write would follow it.
  for (let p = abs; p !== cwd && p !== path.dirname(p); p = path.dirname(p)) {
    const st = await lstat(p).catch(() => undefined);
    if (st?.isSymbolicLink() && !(await realpath(p).then(() => true, () => false))) {
      throw new ToolPathError(`refused path "${given}": it goes through a symbolic link to nothing, which could lead outside the working directory`);
    }
  }
  return abs;
}

/** `abs` as a '/'-separated path relative to `cwd` (for results the model reads). */
export function shownPath(cwd: string, abs: string): string {
  return path.relative(cwd, abs).split(path.sep).join('/') || '.';
}

/** A filesystem error as a sentence naming `given` and no absolute path. */
export function fsProblem(given: string, err: unknown): string {
  if (err instanceof ToolPathError) return err.message;
  return `"${given}": ${isFsError(err) ? fsErrorPhrase(err) : err instanceof Error ? err.message : String(err)}`;
}
