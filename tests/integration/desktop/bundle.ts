/**
 * Bundles a TypeScript child entry the way the app's build does (one ESM file, packages
 * external) into node_modules/.cache, so contract tests start children without tsx.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const built = new Map<string, string>();

/** Path of the bundled `entry` (repo-relative) for this test process. */
export function bundledEntry(entry: string): string {
  const hit = built.get(entry);
  if (hit) return hit;
  const outfile = path.join(root, 'node_modules', '.cache', 'stepwise-test', `${entry.replace(/\.ts$/, '').replace(/[^A-Za-z0-9]+/g, '-')}-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  buildSync({ entryPoints: [path.join(root, entry)], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'silent' });
  built.set(entry, outfile);
  return outfile;
}
