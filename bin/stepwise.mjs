#!/usr/bin/env node
// The `stepwise` CLI. Runs the built bundle (out/main/cli.js, whose runner and mcp-host are
// its siblings) when it is newer than every source file; otherwise the TypeScript sources
// through tsx (a dev dependency), so a stale build is never used. Signals are passed on to
// the CLI process, so stopping this one stops it (and it stops its runs and servers); killed
// with SIGKILL, the CLI notices this process is gone and stops as on SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'out/main/cli.js');

// This file runs before any install and imports nothing of the repo; scripts/bootstrap.mjs has its own copy of this walk.
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function bundleIsFresh() {
  if (process.env.STEPWISE_FROM_SOURCE || !existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  return ['main', 'agent-runner', 'mcp-host', 'shared'].every((d) => !existsSync(path.join(root, d)) || newest(path.join(root, d)) <= built);
}

// One walk of the sources per command.
const fresh = bundleIsFresh();
// Neither a fresh build nor the dev dependencies (a fresh clone): say what to run first.
if (!fresh && !existsSync(path.join(root, 'node_modules', 'tsx'))) {
  console.error(
    existsSync(bundle)
      ? 'stepwise: the build in out/ is older than the sources, and tsx (a dev dependency) is not installed to run them. Run `npm start` once (it installs and builds), or `yarn install && yarn build`.'
      : 'stepwise: not installed yet. Run `npm start` once (it installs the dependencies and builds), or `yarn install && yarn build`, then run this command again.',
  );
  process.exit(2);
}

// tsx is the repo's, not one found from the folder the command runs in (a bare `--import tsx`
// resolves from the working directory: run from a project folder, it was not found).
const tsxLoader = () => pathToFileURL(createRequire(path.join(root, 'package.json')).resolve('tsx')).href;
const args = fresh
  ? [bundle, ...process.argv.slice(2)]
  : ['--import', tsxLoader(), path.join(root, 'main/cli/index.ts'), ...process.argv.slice(2)];
// The CLI watches for this process to go (main/cli/parent-watch.ts): killed with SIGKILL, this
// process cannot pass anything on, and the CLI must not keep running unowned.
const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, STEPWISE_WRAPPER_PID: String(process.pid) } });
// A terminal's Ctrl-C reaches the whole process group, the CLI included: this process only
// waits for the CLI to finish (passing SIGINT on would be a second Ctrl-C). Signals sent to
// this process alone (SIGTERM, SIGHUP) are passed on.
process.on('SIGINT', () => {});
for (const sig of ['SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (child.exitCode === null) child.kill(sig);
  });
}
let passedOn = false;
for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => (passedOn = true));
child.on('exit', (code, signal) => {
  // Killed from outside (not by our own Ctrl-C or a signal we passed on): say so instead of ending silently.
  if (code === null && signal !== 'SIGINT' && !passedOn) console.error(`stepwise: the CLI process was stopped by ${signal}; anything it was running has stopped too`);
  process.exit(code ?? (signal === 'SIGINT' ? 130 : 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : 1)));
});
