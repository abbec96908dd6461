/**
 * Imports MCP servers from other clients' files into `settings/mcp.json`:
 * Claude Desktop (`claude_desktop_config.json`) and Cursor (`.cursor/mcp.json`) use the same
 * `mcpServers` map; VS Code (`.vscode/mcp.json`) uses `servers` plus `inputs` (prompted values).
 * VS Code's `${env:NAME}` becomes `${NAME}`; `${input:id}` becomes `${ID}` (an environment
 * variable the user must set, reported in `notes`); `${workspaceFolder}` becomes the folder
 * that holds `.vscode/`. The files are read as JSON with comments and trailing commas (JSONC),
 * as those clients accept them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { parseJsoncText } from '../../../shared/thread/json-text';
import { mcpConfigPath, type RawMcpServer } from './config';

export interface ImportedServers {
  format: 'claude-desktop' | 'cursor' | 'vscode';
  servers: Record<string, RawMcpServer>;
  /** What the user should know (inputs turned into env variables, skipped entries). */
  notes: string[];
}

function envName(id: string): string {
  return id.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
}

function rewriteVsCode(value: string, folder: string, inputs: Map<string, string>, notes: Set<string>): string {
  return value.replace(/\$\{([^}]+)\}/g, (m, ref: string) => {
    if (ref.startsWith('env:')) return `\${${ref.slice(4)}}`;
    if (ref.startsWith('input:')) {
      const id = ref.slice(6);
      const name = envName(id);
      notes.add(`input "${id}"${inputs.get(id) ? ` (${inputs.get(id)})` : ''} is read from $${name}: set it in the environment`);
      return `\${${name}}`;
    }
    if (ref === 'workspaceFolder') return folder;
    notes.add(`left ${m} as it is: Stepwise does not know that variable`);
    return m;
  });
}

function mapStrings<T>(v: T, f: (s: string) => string): T {
  if (typeof v === 'string') return f(v) as T;
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)])) as T;
  return v;
}

/**
 * Parses JSON with comments and trailing commas (what VS Code and Cursor accept). Throws
 * naming `file`, the line and column of the first problem, and what it is.
 */
export function parseForeignJson(text: string, file: string): unknown {
  const parsed = parseJsoncText(text);
  if (parsed.ok) return parsed.value;
  const p = parsed.problem;
  throw new Error(`${file}: not valid JSON at line ${p.line}, column ${p.column}: ${p.message}`);
}

/** Reads another client's MCP file; the format is told by its keys and its path. */
export async function readForeignMcpFile(file: string): Promise<ImportedServers> {
  const text = await fs.readFile(file, 'utf8').catch((err: Error) => {
    throw new Error(`${file}: cannot read: ${err.message}`, { cause: err });
  });
  const parsed = parseForeignJson(text, file);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file}: must be a JSON object`);
  const doc = parsed as Record<string, unknown>;
  const notes = new Set<string>();
  if (doc.mcpServers && typeof doc.mcpServers === 'object') {
    const format = /[\\/]\.cursor[\\/]/.test(path.resolve(file)) ? 'cursor' : 'claude-desktop';
    return { format, servers: { ...(doc.mcpServers as Record<string, RawMcpServer>) }, notes: [] };
  }
  if (doc.servers && typeof doc.servers === 'object') {
    const dir = path.dirname(path.resolve(file));
    const folder = path.basename(dir) === '.vscode' ? path.dirname(dir) : dir;
    const inputs = new Map<string, string>();
    for (const i of (Array.isArray(doc.inputs) ? doc.inputs : []) as { id?: string; description?: string }[]) {
      if (i?.id) inputs.set(i.id, i.description ?? '');
    }
    const servers: Record<string, RawMcpServer> = {};
    for (const [name, raw] of Object.entries(doc.servers as Record<string, RawMcpServer & { envFile?: string }>)) {
      const { envFile, ...entry } = raw ?? {};
      if (envFile) notes.add(`server "${name}": envFile ${envFile} is not imported; copy its variables into "env"`);
      servers[name] = mapStrings(entry, (s) => rewriteVsCode(s, folder, inputs, notes));
    }
    return { format: 'vscode', servers, notes: [...notes] };
  }
  throw new Error(`${file}: no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object found`);
}

/**
 * Adds the servers of `file` to `$home/settings/mcp.json` (written atomically). A name that
 * already exists is kept unless `overwrite`; what was skipped is said in `notes`.
 */
export async function importMcpServers(home: string, file: string, overwrite = false): Promise<ImportedServers & { added: string[] }> {
  const imported = await readForeignMcpFile(file);
  const target = mcpConfigPath(home);
  let doc: { mcpServers?: Record<string, unknown> } & Record<string, unknown> = {};
  try {
    doc = JSON.parse(await fs.readFile(target, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${target}: cannot update: ${(err as Error).message}`, { cause: err });
  }
  const servers = { ...(doc.mcpServers ?? {}) };
  const added: string[] = [];
  const notes = [...imported.notes];
  for (const [name, entry] of Object.entries(imported.servers)) {
    if (servers[name] !== undefined && !overwrite) {
      notes.push(`server "${name}" already exists in ${target}; kept the existing entry`);
      continue;
    }
    servers[name] = entry;
    added.push(name);
  }
  await fs.mkdir(path.dirname(target), { recursive: true });
  await writeFileAtomic(target, JSON.stringify({ ...doc, mcpServers: servers }, null, 2) + '\n');
  return { ...imported, notes, added };
}
