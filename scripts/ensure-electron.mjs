#!/usr/bin/env node
// Downloads the Electron binary after install, as Electron's own postinstall would, but a
// failed download (no network, a sandbox) only warns: the web host, the CLI and the tests
// need no Electron binary. `--require` (used by `yarn dev`) makes a missing binary an error.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const require = createRequire(import.meta.url);
const strict = process.argv.includes('--require');
let pkgDir;
try {
  pkgDir = path.dirname(require.resolve('electron/package.json'));
} catch {
  console.warn('[stepwise] electron is not installed; run `yarn install` first.');
  process.exit(strict ? 1 : 0);
}
const hasBinary = () => existsSync(path.join(pkgDir, 'path.txt'));
if (!hasBinary() && !process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  const r = spawnSync(process.execPath, [path.join(pkgDir, 'install.js')], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.warn('[stepwise] The Electron binary could not be downloaded. The desktop app (`yarn dev`) ' +
      'needs it; the web host (`yarn stepwise serve`), the CLI and the tests do not.');
  }
}
if (strict && !hasBinary()) {
  console.error('[stepwise] No Electron binary: run `node node_modules/electron/install.js` with network access, ' +
    'or use the web host: `yarn stepwise serve`.');
  process.exit(1);
}
