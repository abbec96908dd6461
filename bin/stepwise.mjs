#!/usr/bin/env node
// The `stepwise` CLI. Runs the TypeScript sources through tsx (a dev dependency of this repo).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'main/cli/index.ts'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(r.status ?? (r.signal ? 130 : 1));
