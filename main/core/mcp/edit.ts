/**
 * Changes to `$home/settings/mcp.json` from the Settings UI: add or replace one server,
 * remove one. Entries are checked before anything is written (the error names the field);
 * the file is written atomically with mode 0600; other entries and keys are kept as they are.
 * A running McpService notices the change on its next request.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { mcpConfigPath, resolveServer } from './config';
import { parseSettingsJson } from '../settings/json-text';

type Doc = { mcpServers?: Record<string, unknown> } & Record<string, unknown>;

/** The file's document; a missing file is `{}`. Throws, naming the line and column of a syntax error. */
async function readDoc(file: string): Promise<Doc> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${file} cannot be updated: ${(err as Error).message}. Fix the file first.`, { cause: err });
  }
  const parsed = parseSettingsJson(text);
  const problem = !parsed.ok ? parsed.problem : !parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value) ? 'expected a JSON object' : undefined;
  if (problem) throw new Error(`${file} cannot be updated: ${problem}. Fix the file first (or delete it to start over); nothing was changed.`);
  return (parsed as { value: Doc }).value;
}

async function writeDoc(file: string, doc: Doc): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, JSON.stringify(doc, null, 2) + '\n', { mode: 0o600 });
}

/** `$ENV` references are checked for shape only here: the variable may be set later. */
const anyEnv = new Proxy({}, { get: () => 'set' }) as NodeJS.ProcessEnv;

/** Adds or replaces server `name`. Throws naming the field for an invalid entry or name. */
export async function saveMcpServer(home: string, name: string, entry: unknown): Promise<void> {
  if (typeof name !== 'string' || !/^[\w.-]{1,64}$/.test(name)) {
    throw new Error(`Server name ${JSON.stringify(name)} is not valid: use 1–64 letters, digits, "_", "." or "-".`);
  }
  resolveServer(entry, `/mcpServers/${name}`, anyEnv);
  const file = mcpConfigPath(home);
  const doc = await readDoc(file);
  await writeDoc(file, { ...doc, mcpServers: { ...(doc.mcpServers ?? {}), [name]: entry } });
}

/** Removes server `name`; a name that is not there is an error naming the file. */
export async function removeMcpServer(home: string, name: string): Promise<void> {
  const file = mcpConfigPath(home);
  const doc = await readDoc(file);
  if (!doc.mcpServers || !(name in doc.mcpServers)) throw new Error(`MCP server "${name}" is not in ${file}.`);
  const servers = { ...doc.mcpServers };
  delete servers[name];
  await writeDoc(file, { ...doc, mcpServers: servers });
}

/**
 * The seeded `everything` server points into an installation (node_modules of a checkout, or
 * the app). When that file is gone (the checkout moved, a new install) and `entry` is where it
 * is now, point the entry there, keeping everything else. A relative script counts from the
 * entry's `cwd`; a command that is a bare name (found on PATH) is kept, an absolute one that is
 * gone becomes `execPath` (with `ELECTRON_RUN_AS_NODE=1` when that is an Electron app). Servers
 * the user configured otherwise are never touched. Resolves with a line saying what changed.
 */
export async function repointSeededServer(home: string, entry: string, o: { execPath?: string; electron?: boolean } = {}): Promise<string | undefined> {
  const file = mcpConfigPath(home);
  let doc: Doc;
  try {
    doc = await readDoc(file);
  } catch {
    return undefined; // a broken file is reported where it is loaded
  }
  const server = doc.mcpServers?.everything as { command?: unknown; args?: unknown; cwd?: unknown; env?: unknown } | undefined;
  const args = Array.isArray(server?.args) ? [...(server.args as unknown[])] : undefined;
  const script = typeof args?.[0] === 'string' ? args[0] : undefined;
  if (!server || !args || !script || typeof server.command !== 'string') return undefined;
  const base = typeof server.cwd === 'string' ? server.cwd : process.cwd();
  if (!/[\\/]server-everything[\\/]dist[\\/]index\.js$/.test(script) || path.resolve(base, script) === entry || (await exists(path.resolve(base, script)))) return undefined;
  args[0] = entry;
  const next: Record<string, unknown> = { ...server, args };
  const changes = [`it now runs ${entry}`];
  if (path.isAbsolute(server.command) && !(await exists(server.command))) {
    const execPath = o.execPath ?? process.execPath;
    next.command = execPath;
    changes.push(`with ${execPath}`);
    if (o.electron) {
      const env = server.env && typeof server.env === 'object' && !Array.isArray(server.env) ? server.env : {};
      next.env = { ...env, ELECTRON_RUN_AS_NODE: '1' };
    }
  }
  await writeDoc(file, { ...doc, mcpServers: { ...doc.mcpServers, everything: next } });
  return `The "everything" MCP server in ${file} pointed to ${script}, which is gone; ${changes.join(' ')}.`;
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}
