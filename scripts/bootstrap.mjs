#!/usr/bin/env node
// The quick start's engine: `npm start` and `npm test` on a fresh machine with only Node and npm.
// Installs dependencies with the committed Yarn when they are missing or stale, builds what is
// needed, then runs the command. Usage: node scripts/bootstrap.mjs start|test|bench [args…]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const yarnRelease = readdirSync(path.join(root, '.yarn/releases')).find((f) => f.startsWith('yarn-'));
const yarnBin = path.join(root, '.yarn/releases', yarnRelease);
const [cmd, ...rest] = process.argv.slice(2);

function run(bin, args, env = {}) {
  const r = spawnSync(bin, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const yarn = (...args) => run(process.execPath, [yarnBin, ...args]);
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

function ensureInstalled() {
  const state = path.join(root, 'node_modules/.yarn-state.yml');
  if (mtime(state) >= Math.max(mtime(path.join(root, 'yarn.lock')), mtime(path.join(root, 'package.json')))) return;
  console.log('[stepwise] Installing dependencies with the committed Yarn…');
  yarn('install', '--immutable');
}

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Build when out/ is missing or older than any source. */
function ensureBuilt() {
  const built = mtime(path.join(root, 'out/renderer/index.html'));
  const src = Math.max(...['renderer', 'shared', 'main', 'agent-runner', 'mcp-host', 'preload'].map((d) => newestSource(path.join(root, d))));
  if (built >= src) return;
  console.log('[stepwise] Building…');
  yarn('build');
}

/**
 * Runs a long-lived command. Ctrl-C reaches the whole process group already, so SIGINT is only
 * waited out here; SIGTERM and SIGHUP sent to this process alone are passed on. If whatever
 * started this process (npm) goes away without passing a signal on, the server is stopped too
 * rather than left running unowned.
 */
function serve(bin, args) {
  const child = spawn(bin, args, { cwd: root, stdio: 'inherit' });
  process.on('SIGINT', () => {});
  for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => child.exitCode === null && child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    if (child.exitCode === null) child.kill('SIGTERM');
  }, 1000);
  watch.unref();
}

/** Runs a step and returns whether it passed (the test command runs every suite, then fails). */
function step(...args) {
  return spawnSync(process.execPath, [yarnBin, ...args], { cwd: root, stdio: 'inherit' }).status === 0;
}

ensureInstalled();
switch (cmd) {
  case 'start':
    ensureBuilt();
    serve(process.execPath, [path.join(root, 'bin/stepwise.mjs'), 'serve', ...rest]);
    break;
  case 'test': {
    ensureBuilt();
    const unit = step('test:unit', ...rest);
    const e2e = step('test:e2e');
    if (!unit || !e2e) {
      console.error(`[stepwise] Failed: ${[!unit && 'unit and integration tests (vitest)', !e2e && 'browser tests (Playwright)'].filter(Boolean).join(', ')}.`);
      process.exit(1);
    }
    break;
  }
  case 'bench':
    ensureBuilt();
    run(process.execPath, ['--import', 'tsx', path.join(root, 'bench/run.ts'), ...rest]);
    break;
  default:
    console.error('usage: node scripts/bootstrap.mjs start|test|bench [args…]');
    process.exit(2);
}
