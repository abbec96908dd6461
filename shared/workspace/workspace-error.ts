/**
 * The error of a refused or failed workspace operation (docs/architecture.md#the-thread-document),
 * thrown by the host's workspace and by the agent-runner when it opens an agent tool's thread.
 * Every message names workspace-relative paths only, never the workspace's absolute folder.
 */
import { fsErrorPhrase, isFsError } from '../fs-errors';
import { ThreadFileError } from '../thread/thread-text';

/** Why a workspace operation was refused or failed. */
export type WorkspaceErrorCode = 'outside' | 'invalid' | 'not_found' | 'exists' | 'malformed' | 'io';

/** A workspace operation refused or failed; `code` tells which. Messages name the relative path. */
export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

/** `text` quoted for a message, cut to about `max` characters (a client may send megabytes). */
export function quoted(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

const CODES: Record<string, WorkspaceErrorCode> = {
  ENOENT: 'not_found',
  EEXIST: 'exists',
  ENOTEMPTY: 'exists',
  ENAMETOOLONG: 'invalid',
  EINVAL: 'invalid',
  ELOOP: 'invalid',
};

/**
 * The error a client gets when `action` (e.g. "create the folder") on workspace path `rel` threw
 * `err`: a file-system error becomes a WorkspaceError naming `rel` and the cause without paths
 * (`could not create the folder "a/b": permission denied`); WorkspaceErrors and ThreadFileErrors
 * (already relative) and anything else pass through unchanged.
 */
export function workspaceFailure(err: unknown, action: string, rel: string): unknown {
  if (err instanceof WorkspaceError || err instanceof ThreadFileError || !isFsError(err)) return err;
  const where = rel ? quoted(rel) : 'the workspace folder';
  return new WorkspaceError(CODES[err.code] ?? 'io', `could not ${action} ${where}: ${fsErrorPhrase(err)}`);
}
