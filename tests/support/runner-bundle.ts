/**
 * The real agent-runner, bundled the way the app's build bundles it (one ESM file, packages
 * external), so integration tests start runners in ~0.2 s instead of compiling through tsx
 * in every process. Built once per test process into node_modules/.cache (so packages
 * resolve from the repo's node_modules).
 */
import path from 'node:path';
import fs from 'node:fs';
import { buildSync } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..', '..');
let built: string | undefined;

/** Path of the bundled runner entry for this test process. */
export function bundledRunner(): string {
  if (built) return built;
  const outfile = path.join(root, 'node_modules', '.cache', 'stepwise-test', `agent-runner-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  buildSync({
    entryPoints: [path.join(root, 'agent-runner', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'silent',
  });
  built = outfile;
  return outfile;
}
