/** The repository's files as they are on disk, for the checks over the whole repository (tests/repo/). */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The repository root. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Folders never read: dependencies, build output, test reports, and hidden ones (.git, .yarn, .ci). */
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist', 'test-results', 'playwright-report']);

/** Every file below the repository folder `rel` ('' for the root), as posix paths relative to the root. */
export function repoFilesUnder(rel = ''): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      const child = dir ? `${dir}/${e.name}` : e.name;
      if (!e.isDirectory()) files.push(child);
      else if (!SKIPPED_DIRS.has(e.name) && !e.name.startsWith('.')) walk(child);
    }
  };
  walk(rel);
  return files;
}
