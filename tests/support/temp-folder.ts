/** A temporary folder for the tests of one file, made before them and removed after. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * A fresh folder under the OS temp folder, its name starting with `prefix`: made once before
 * the file's tests (`per: 'file'`) or anew before each test (`per: 'test'`), and removed after
 * (registers vitest hooks: call it at the top of the file, before hooks that use it). Returns
 * `dir(...parts)`, a path inside the current folder; `dir()` is the folder itself.
 */
export function tempFolder(prefix: string, per: 'file' | 'test'): (...parts: string[]) => string {
  let current: string | undefined;
  const [before, after] = per === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    current = await mkdtemp(path.join(os.tmpdir(), prefix));
  });
  after(async () => {
    if (current) await rm(current, { recursive: true, force: true });
    current = undefined;
  });
  return (...parts) => {
    if (!current) throw new Error(`tempFolder(${prefix}): used outside a test or hook`);
    return path.join(current, ...parts);
  };
}
