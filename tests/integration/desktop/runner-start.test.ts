/**
 * Every run starts an agent-runner process, so what the runner loads before its first message
 * is paid for every reply. As built (out/main/agent-runner.js and the chunks it imports
 * statically), it loads no package from node_modules: @sinclair/typebox and jsonc-parser are
 * bundled (loading them as hundreds of small ES modules cost most of a runner's start-up CPU,
 * `yarn bench react`), and the provider SDKs and ajv load only where they are first used,
 * through dynamic imports. Builds first when out/ is missing or older than the sources.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const outMain = path.join(repo, 'out', 'main');

function newest(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((n) => newest(path.join(p, n))));
}

function ensureBuilt(): void {
  const entry = path.join(outMain, 'agent-runner.js');
  const sources = Math.max(...['agent-runner', 'shared', 'main', 'electron.vite.config.ts'].map((p) => newest(path.join(repo, p))));
  if (fs.existsSync(entry) && fs.statSync(entry).mtimeMs >= sources) return;
  execFileSync(process.execPath, [path.join(repo, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: repo, stdio: 'pipe', timeout: 240_000 });
}

/** Bare specifiers of the static imports of `file` and of the sibling chunks it imports statically. */
function staticPackages(file: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(file)) return out;
  seen.add(file);
  const code = fs.readFileSync(file, 'utf8');
  // Static `import … from "x"` / `import "x"` at the start of a line (the bundler's output); not `import("x")`.
  for (const m of code.matchAll(/^import\s+(?:[^'"()]*?\s+from\s+)?["']([^"']+)["'];?$/gm)) {
    const spec = m[1];
    if (spec.startsWith('.')) for (const p of staticPackages(path.resolve(path.dirname(file), spec), seen)) out.add(p);
    else out.add(spec);
  }
  return out;
}

describe('the agent-runner as built', () => {
  it('starts without loading a package from node_modules (only Node built-ins)', () => {
    ensureBuilt();
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const packages = [...staticPackages(path.join(outMain, 'agent-runner.js'))].filter((p) => !builtins.has(p));
    expect(packages).toEqual([]);
  }, 300_000);
});
