/**
 * File-system errors said without paths: Node's messages (`EACCES: permission denied, open
 * '/home/…/x.json'`) carry the absolute path, which must not reach a client. No Node import:
 * the host (main/) and the agent-runner both use it.
 */

/** A Node file-system error: `code` like 'ENOENT', `syscall` like 'open', `path` absolute. */
export interface FsError extends Error {
  code: string;
  syscall?: string;
  path?: string;
}

/** True for an error Node's fs raised (a code like `EACCES` or `ERR_FS_FILE_TOO_LARGE`), not a programming error. */
export function isFsError(err: unknown): err is FsError {
  return err instanceof Error && typeof (err as FsError).code === 'string' && /^E(?:[A-Z0-9]+|RR_FS_[A-Z0-9_]+)$/.test((err as FsError).code);
}

const PHRASES: Record<string, string> = {
  ENOENT: 'it does not exist',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  ENAMETOOLONG: 'a name in the path is too long (most file systems allow at most 255 bytes per name)',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'it already exists',
  ENOTEMPTY: 'the folder is not empty',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EBUSY: 'it is in use by another program',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  ELOOP: 'the path goes through a loop of symbolic links',
  EINVAL: 'the file system does not accept this name',
  EXDEV: 'it cannot be moved across disks',
  EIO: 'the disk reported an input/output error',
  ERR_FS_FILE_TOO_LARGE: 'the file is larger than 2 GiB',
  EFTYPE: 'it is not a regular file (a FIFO, socket or device): it is skipped, never opened',
};

/** What went wrong, in a few words and without any path (`err.code` in brackets when unknown). */
export function fsErrorPhrase(err: unknown): string {
  const code = isFsError(err) ? err.code : undefined;
  if (code === 'EEXIST' && (err as FsError).syscall === 'mkdir') return 'a file is in the way of a folder of that name';
  // regular-file.node.ts's SpecialFileError says which kind of file it is, without a path.
  if (code === 'EFTYPE' && (err as Error).name === 'SpecialFileError') return (err as Error).message;
  if (code && PHRASES[code]) return PHRASES[code];
  return code ? `the file system refused it (${code})` : 'the file system refused it';
}
