/**
 * Errors the host answers to a client request: a readable message plus a stable `code`
 * (`version_mismatch`, `thread_running`, `invalid_edit`, `not_found`, `bad_request`, …).
 * No message sent to a client shows an absolute path: `forClient` is applied to every answer.
 */
import path from 'node:path';
import { fsErrorPhrase, isFsError } from '../../shared/fs-errors';

/** A refused or failed request: `code` is stable for programs, `message` is for people. */
export class HostError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HostError';
  }
}

/** Absolute folders a message sent to a client must not show. */
export interface PrivateFolders {
  /** The workspace folder: a path inside it is shown workspace-relative. */
  workspaceDir: string;
  /** The Stepwise home (`$STEPWISE_HOME`): shown as `$STEPWISE_HOME`. */
  home: string;
  /** The user's home folder (os.homedir()): shown as `~`. */
  userHome?: string;
}

/** `dir` as it may appear in a message: as is, and JSON-escaped (Windows backslashes doubled). */
function spellings(dir: string): string[] {
  const escaped = JSON.stringify(dir).slice(1, -1);
  return escaped === dir ? [dir] : [dir, escaped];
}

/**
 * `text` with the folders of `f` replaced: `<workspace>/a/b.json` → `a/b.json`, the workspace
 * itself → "the workspace folder", the Stepwise home → `$STEPWISE_HOME`, the user's home → `~`
 * (most specific first). A folder that is a file-system root is left alone.
 */
export function withoutPrivatePaths(text: string, f: PrivateFolders): string {
  const rules: Array<[string, string, string]> = [
    [f.workspaceDir, '', 'the workspace folder'],
    [f.home, '$STEPWISE_HOME/', '$STEPWISE_HOME'],
    ...(f.userHome ? [[f.userHome, '~/', '~'] as [string, string, string]] : []),
  ];
  let out = text;
  for (const [dir, inside, itself] of rules) {
    if (!dir || path.parse(dir).root === dir) continue;
    for (const d of spellings(dir)) {
      for (const sep of new Set([path.sep, '/', '\\\\'])) out = out.split(d + sep).join(inside);
      out = out.split(d).join(itself);
    }
  }
  return out;
}

/**
 * What a client is told for `err`, thrown while answering its request: the same error (class,
 * code, fields) with `withoutPrivatePaths` applied to its message; a raw file-system error (an
 * `E…` code from Node's fs, whose message holds the absolute path) becomes HostError 'io'
 * saying what failed and why, with the path relative or, outside the private folders, its last name.
 */
export function forClient(err: unknown, f: PrivateFolders): unknown {
  if (isFsError(err)) {
    const shown = err.path ? withoutPrivatePaths(err.path, f) : '';
    const where = !shown ? '' : ` ${JSON.stringify(path.isAbsolute(shown) ? path.basename(shown) : shown)}`;
    return new HostError('io', `could not ${err.syscall ?? 'use'}${where}: ${fsErrorPhrase(err)}`);
  }
  if (err instanceof Error) err.message = withoutPrivatePaths(err.message, f);
  return err;
}

/**
 * A file system error (`EEXIST: …, mkdir '/home/…'`) as a HostError with the same code and the
 * path relative to $STEPWISE_HOME (`home`): a client is never sent the host's absolute paths.
 */
export function withoutHostPaths(home: string, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException | null;
  if (!e || typeof e !== 'object' || typeof e.syscall !== 'string' || typeof e.code !== 'string' || err instanceof HostError) return err;
  let message = e.message;
  for (const abs of [e.path, (e as { dest?: string }).dest]) {
    if (typeof abs === 'string') message = message.split(abs).join(path.relative(home, abs).split(path.sep).join('/') || '.');
  }
  return new HostError(e.code, message);
}
