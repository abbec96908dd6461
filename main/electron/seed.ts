/**
 * First start of the desktop app: like the web host (main/web/seed.ts), but a stdio MCP server
 * whose command is the app's own executable (`process.execPath`, which in Electron is the app,
 * not Node) gets `ELECTRON_RUN_AS_NODE=1` so it runs as plain Node.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { serverEverythingEntry } from '../web/seed';
import { repointSeededServer } from '../core/mcp/edit';

/** A stdio server entry running `script` with `execPath`; Electron's executable runs it as Node. */
export function nodeScriptServer(execPath: string, script: string, args: string[], electron: boolean): { command: string; args: string[]; env?: Record<string, string> } {
  return { command: execPath, args: [script, ...args], ...(electron ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {}) };
}

/**
 * Writes settings/mcp.json (mode 0600) with the `everything` server when there is no mcp.json
 * yet and server-everything is installed (development; it is not packed into the app); an
 * existing seeded entry whose script is gone is pointed at this installation.
 * Returns whether it wrote.
 */
export async function seedDesktopMcpConfig(
  home: string,
  o: { execPath?: string; entry?: string; electron?: boolean } = {},
): Promise<boolean> {
  const file = path.join(home, 'settings', 'mcp.json');
  const entry = 'entry' in o ? o.entry : serverEverythingEntry();
  if (existsSync(file) && entry) await repointSeededServer(home, entry, { execPath: o.execPath ?? process.execPath, electron: o.electron ?? Boolean(process.versions.electron) }).catch(() => undefined);
  if (existsSync(file) || !entry) return false;
  await mkdir(path.dirname(file), { recursive: true });
  const execPath = o.execPath ?? process.execPath;
  const electron = o.electron ?? Boolean(process.versions.electron);
  const config = { mcpServers: { everything: nodeScriptServer(execPath, entry, ['stdio'], electron) } };
  await writeFileAtomic(file, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  return true;
}
