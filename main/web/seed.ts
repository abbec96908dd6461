/**
 * First start: a new $STEPWISE_HOME gets the example threads in its workspace and an
 * `everything` MCP server (the installed @modelcontextprotocol/server-everything, bundled with
 * Stepwise and run inside the mcp-host) in settings/mcp.json, so the app does its whole job with
 * no key and no network. The desktop app seeds the same (main/electron/seed.ts).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import writeFileAtomic from 'write-file-atomic';
import { migrateSeededServer, SEEDED_EVERYTHING } from '../core/mcp/edit';
import { EXAMPLE_RUNS_DIR } from '../core/workspace/workspace-store';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The first of `candidates` that exists. */
export function firstExisting(candidates: string[]): string | undefined {
  return candidates.find((p) => existsSync(p));
}

/** resources/examples, from the sources or next to the bundle. */
export function examplesDir(): string | undefined {
  return firstExisting([
    path.resolve(here, '../../resources/examples'),
    path.resolve(here, '../../../resources/examples'),
    path.resolve(process.cwd(), 'resources/examples'),
  ]);
}

/**
 * Copies the examples' run records (`<examples>/.runs/<thread id>/<run id>.json`: the example
 * batch's case runs, scripts/example-batch.mjs) into `<home>/runs/`, so each case of the example
 * batch opens on its run. A run file already there is kept. Call it when the examples were just
 * seeded (a new workspace).
 */
export async function seedExampleRuns(examples: string, home: string): Promise<void> {
  const from = path.join(examples, EXAMPLE_RUNS_DIR);
  if (!existsSync(from)) return;
  await cp(from, path.join(home, 'runs'), { recursive: true, force: false, errorOnExist: false });
}

/** The built renderer (out/renderer), from the sources or next to the bundle. */
export function rendererDir(): string {
  return (
    firstExisting([path.resolve(here, '../../out/renderer'), path.resolve(here, '../renderer'), path.resolve(process.cwd(), 'out/renderer')]) ??
    path.resolve(here, '../../out/renderer')
  );
}

/** Absolute path of server-everything's entry script, when installed. */
export function serverEverythingEntry(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
    const entry = path.join(path.dirname(pkg), 'dist/index.js');
    return existsSync(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes settings/mcp.json (mode 0600) with the bundled `everything` server when there is no
 * mcp.json yet and server-everything is installed (`o.installed`, default: it resolves from here).
 * One entry for every host: the desktop app, the web host and the CLI share `~/.stepwise` by
 * default, and a bundled server names no path into an installation, so nothing goes stale when
 * a checkout moves or the app is updated. An existing file's entry seeded by an earlier version
 * is migrated (migrateSeededServer; `notice` gets a line saying so) unless `o.migrate` is false.
 * Returns whether it wrote a new file.
 */
export async function seedMcpConfig(home: string, notice?: (line: string) => void, o: { migrate?: boolean; installed?: boolean } = {}): Promise<boolean> {
  const file = path.join(home, 'settings', 'mcp.json');
  const installed = o.installed ?? serverEverythingEntry() !== undefined;
  if (existsSync(file)) {
    if (installed && o.migrate !== false) {
      const changed = await migrateSeededServer(home).catch((err: Error) => `Could not update ${file}: ${err.message}`);
      if (changed) notice?.(changed);
    }
    return false;
  }
  if (!installed) return false;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify({ mcpServers: { everything: SEEDED_EVERYTHING } }, null, 2) + '\n', { mode: 0o600 });
  return true;
}
