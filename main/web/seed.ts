/**
 * First start: a new $STEPWISE_HOME gets the example threads in its workspace and an
 * `everything` MCP server (from the installed @modelcontextprotocol/server-everything) in
 * settings/mcp.json, so the app does its whole job with no key and no network.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repointSeededServer } from '../core/mcp/edit';

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
 * Writes settings/mcp.json with the `everything` server when there is no mcp.json yet, or
 * points the seeded entry at this installation when the file it named is gone (`notice` gets
 * a line saying so). Returns whether it wrote a new file.
 */
export async function seedMcpConfig(home: string, notice?: (line: string) => void, o: { repoint?: boolean } = {}): Promise<boolean> {
  const file = path.join(home, 'settings', 'mcp.json');
  const entry = serverEverythingEntry();
  if (existsSync(file)) {
    if (entry && o.repoint !== false) {
      const changed = await repointSeededServer(home, entry).catch((err: Error) => `Could not update ${file}: ${err.message}`);
      if (changed) notice?.(changed);
    }
    return false;
  }
  if (!entry) return false;
  await mkdir(path.dirname(file), { recursive: true });
  const config = { mcpServers: { everything: { command: process.execPath, args: [entry, 'stdio'] } } };
  await writeFile(file, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  return true;
}
