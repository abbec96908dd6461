/**
 * Changes to `$home/settings/mcp.json` from the Settings UI: add or replace one server,
 * remove one. Entries are checked before anything is written (the error names the field);
 * the file is written atomically with mode 0600; other entries and keys are kept as they are.
 * A running McpService notices the change on its next request. Changes of the file take turns
 * (settings/file-turns.ts), so two at once both land.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { mcpConfigPath, resolveServer } from './config';
import { parseSettingsJson } from '../settings/json-text';
import { inTurn } from '../settings/file-turns';

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
  await inTurn(file, async () => {
    const doc = await readDoc(file);
    await writeDoc(file, { ...doc, mcpServers: { ...(doc.mcpServers ?? {}), [name]: entry } });
  });
}

/** Removes server `name`; a name that is not there is an error naming the file. */
export async function removeMcpServer(home: string, name: string): Promise<void> {
  const file = mcpConfigPath(home);
  await inTurn(file, async () => {
    const doc = await readDoc(file);
    if (!doc.mcpServers || !(name in doc.mcpServers)) throw new Error(`MCP server "${name}" is not in ${file}.`);
    const servers = { ...doc.mcpServers };
    delete servers[name];
    await writeDoc(file, { ...doc, mcpServers: servers });
  });
}

/** The `everything` entry the seed writes: server-everything bundled with Stepwise, run inside the mcp-host. */
export const SEEDED_EVERYTHING = { type: 'bundled', server: 'everything' } as const;

/** server-everything's entry script, as earlier seeds named it in `args[0]`. */
const EVERYTHING_SCRIPT = /[\\/]server-everything[\\/]dist[\\/]index\.js$/;

/**
 * Earlier versions seeded `everything` as a stdio server running server-everything's script
 * from an installation: with Node (web host, CLI), or with the desktop app's own executable and
 * `ELECTRON_RUN_AS_NODE`, which the app no longer honours (its `runAsNode` fuse is off). Such an
 * entry becomes {@link SEEDED_EVERYTHING} when it runs the app as Node or when its script is gone
 * (the checkout moved, a new install; a relative script counts from the entry's `cwd`). The
 * other keys the user set (`timeoutMs`, `disabled`, …) are kept; the stdio ones (`command`,
 * `args`, `env`, `cwd`) go. Servers the user configured otherwise, and a seeded entry whose
 * script is there and that runs with Node, are never touched. Resolves with a line saying what
 * changed.
 */
export async function migrateSeededServer(home: string): Promise<string | undefined> {
  const file = mcpConfigPath(home);
  let doc: Doc;
  try {
    doc = await readDoc(file);
  } catch {
    return undefined; // a broken file is reported where it is loaded
  }
  const server = doc.mcpServers?.everything;
  if (!server || typeof server !== 'object' || Array.isArray(server)) return undefined;
  const { type, command, args, env, cwd, server: _bundled, ...rest } = server as Record<string, unknown>;
  const script = Array.isArray(args) && typeof args[0] === 'string' ? args[0] : undefined;
  if ((type !== undefined && type !== 'stdio') || typeof command !== 'string' || !script || !EVERYTHING_SCRIPT.test(script)) return undefined;
  const asNode = !!env && typeof env === 'object' && !Array.isArray(env) && 'ELECTRON_RUN_AS_NODE' in env;
  const gone = !(await exists(path.resolve(typeof cwd === 'string' ? cwd : process.cwd(), script)));
  if (!asNode && !gone) return undefined;
  await writeDoc(file, { ...doc, mcpServers: { ...doc.mcpServers, everything: { ...SEEDED_EVERYTHING, ...rest } } });
  const why = asNode ? "ran this app's executable as Node, which this version cannot do" : `pointed to ${script}, which is gone`;
  return `The "everything" MCP server in ${file} ${why}; it is now the everything server bundled with Stepwise.`;
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}
