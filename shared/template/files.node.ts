/**
 * The host's reader of workspace files for templates (`@include`, `exists`, file variables):
 * confined to the workspace as every workspace path is (`resolveInside`: no absolute path, no
 * `..`, no symbolic link leading out), at most {@link MAX_TEMPLATE_FILE_BYTES} per file. Errors
 * name the relative path only.
 */
import { stat } from 'node:fs/promises';
import { readRegularFile, SpecialFileError } from '../regular-file.node.js';
import { resolveInside } from '../workspace/paths.node.js';
import { fsErrorPhrase, isFsError } from '../fs-errors';
import { WorkspaceError } from '../workspace/workspace-error';
import type { FileLookup } from './render';
import type { TemplateFileReader } from './thread-render';

/** Largest file a template reads, bytes: 1 MiB. */
export const MAX_TEMPLATE_FILE_BYTES = 1024 * 1024;

/** A reader of paths relative to `workspaceDir`. */
export function workspaceFileReader(workspaceDir: string): TemplateFileReader {
  return async (relPath: string): Promise<FileLookup> => {
    let abs: string;
    try {
      abs = await resolveInside(workspaceDir, relPath);
    } catch (err) {
      // Node's own messages carry absolute paths: only the workspace's own errors are passed on.
      if (err instanceof WorkspaceError) return { kind: 'refused', message: err.message, exists: false };
      if (isFsError(err) && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return { kind: 'missing' };
      return { kind: 'refused', message: isFsError(err) ? fsErrorPhrase(err) : 'it could not be read', exists: false };
    }
    try {
      const s = await stat(abs);
      if (s.isDirectory()) return { kind: 'missing' }; // a folder: nothing to include, and exists() is false
      if (s.size > MAX_TEMPLATE_FILE_BYTES) {
        return { kind: 'refused', message: `the file is ${s.size} bytes; templates read at most ${MAX_TEMPLATE_FILE_BYTES} bytes`, exists: true };
      }
      // Checked again on the open file: a FIFO, socket or device is refused, never read.
      return { kind: 'file', text: await readRegularFile(abs, MAX_TEMPLATE_FILE_BYTES) };
    } catch (err) {
      if (err instanceof SpecialFileError) return { kind: 'refused', message: err.message, exists: true };
      if (err instanceof RangeError) return { kind: 'refused', message: `${err.message} (templates read at most ${MAX_TEMPLATE_FILE_BYTES} bytes)`, exists: true };
      if (isFsError(err) && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return { kind: 'missing' };
      return { kind: 'refused', message: isFsError(err) ? fsErrorPhrase(err) : 'it could not be read', exists: false };
    }
  };
}
