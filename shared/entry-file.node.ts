/**
 * Where a process's or worker thread's entry file is, for the code asking. In the build every
 * entry and chunk sits flat in `out/main/` (electron-vite), so the entry is its bundle file beside
 * the asking module; from sources it is the TypeScript entry under the repository root (run
 * through tsx). An environment variable overrides either.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How to find one entry: its file in `out/main/`, its source path, and the variable that overrides both. */
export interface EntrySpec {
  /** File name in the build, e.g. `template-worker.js`. */
  bundleName: string;
  /** Path from the repository root when running from sources, e.g. `shared/template/worker.node.ts`. */
  sourcePath: string;
  /** Environment variable holding a path that overrides both, e.g. `STEPWISE_TEMPLATE_WORKER_ENTRY`. */
  envName: string;
}

/**
 * The absolute path of `spec`'s entry for the module at `moduleUrl` (its `import.meta.url`),
 * whose source file lies `sourceDepth` folders below the repository root (`main/core/process/x.ts`: 3).
 */
export function entryFile(moduleUrl: string, sourceDepth: number, spec: EntrySpec): string {
  const override = process.env[spec.envName];
  if (override) return path.resolve(override);
  const dir = path.dirname(fileURLToPath(moduleUrl));
  const bundled = path.basename(dir) === 'main' && path.basename(path.dirname(dir)) === 'out';
  if (bundled) return path.join(dir, spec.bundleName);
  return path.join(dir, ...Array<string>(sourceDepth).fill('..'), spec.sourcePath);
}
