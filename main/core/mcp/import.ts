/**
 * Imports MCP servers from other clients' files into `settings/mcp.json`: Claude Desktop
 * (`claude_desktop_config.json`), Claude Code (`.mcp.json`, `~/.claude.json`) and Cursor
 * (`.cursor/mcp.json`) use the same `mcpServers` map; VS Code (`.vscode/mcp.json`) uses
 * `servers` plus `inputs` (prompted values). Each client's `${…}` references are expanded the
 * way that client does (./import-expand.ts). The files are read as JSON with comments and
 * trailing commas (JSONC), as those clients accept them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { parseJsoncText } from '../../../shared/thread/json-text';
import { mcpConfigPath, type RawMcpServer } from './config';
import { expandServer, type McpClientFormat, type VsCodeInput } from './import-expand';
import { parseEnvFile } from './env-file';
import { inTurn } from '../settings/file-turns';

export interface ImportedServers {
  format: McpClientFormat;
  servers: Record<string, RawMcpServer>;
  /** What the user should know (inputs turned into env variables, skipped entries). */
  notes: string[];
}

/** Which client wrote an `mcpServers` file, by its name and place. */
function mcpServersFormat(file: string): McpClientFormat {
  const abs = path.resolve(file);
  const base = path.basename(abs);
  if (/[\\/]\.cursor[\\/]/.test(abs)) return 'cursor';
  if (base === '.mcp.json' || base === '.claude.json') return 'claude-code';
  return 'claude-desktop';
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

/** Reads another client's MCP file (the host's environment resolves what must be resolved at import); the format is told by its keys and its path. */
export async function readForeignMcpFile(file: string, env: NodeJS.ProcessEnv = process.env): Promise<ImportedServers> {
  const text = await fs.readFile(file, 'utf8').catch((err: Error) => {
    throw new Error(`${file}: cannot read: ${err.message}`, { cause: err });
  });
  const parsed = parseForeignJson(text, file);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file}: must be a JSON object`);
  const doc = parsed as Record<string, unknown>;
  const dir = path.dirname(path.resolve(file));
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  let format: McpClientFormat;
  let entries: Record<string, unknown>;
  const inputs = new Map<string, VsCodeInput>();
  if (isObj(doc.mcpServers)) {
    format = mcpServersFormat(file);
    entries = doc.mcpServers;
  } else if (isObj(doc.servers)) {
    format = 'vscode';
    entries = doc.servers;
    for (const i of Array.isArray(doc.inputs) ? doc.inputs : []) if (isObj(i) && typeof i.id === 'string' && i.id) inputs.set(i.id, i as unknown as VsCodeInput);
  } else {
    throw new Error(`${file}: no "mcpServers" (Claude Desktop, Claude Code, Cursor) or "servers" (VS Code) object found`);
  }
  const folder = path.basename(dir) === '.vscode' || path.basename(dir) === '.cursor' ? path.dirname(dir) : dir;
  const notes: string[] = [];
  const servers: Record<string, RawMcpServer> = {};
  for (const [name, raw] of Object.entries(entries)) {
    if (!isObj(raw)) {
      notes.push(`server "${name}" is not an object; not imported`);
      continue;
    }
    const r = expandServer(name, raw, { format, folder, env, inputs });
    notes.push(...r.notes);
    if ('skip' in r) {
      notes.push(r.skip);
      continue;
    }
    if (r.envFile) {
      const vars = await fs.readFile(r.envFile, 'utf8').then(parseEnvFile, () => undefined);
      if (!vars) notes.push(`server "${name}": its envFile ${path.basename(r.envFile)} cannot be read; its variables are not imported`);
      else {
        // The file's values are literal text; `env` wins over them, as in Cursor and VS Code.
        const fromFile = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v.replace(/\$/g, '$$$$')]));
        r.entry.env = { ...fromFile, ...r.entry.env };
        notes.push(`server "${name}": the ${Object.keys(vars).length} variable(s) of its envFile ${path.basename(r.envFile)} are copied into "env"`);
      }
    }
    servers[name] = r.entry;
  }
  return { format, servers, notes: [...new Set(notes)] };
}

/**
 * Adds the servers of `file` to `$home/settings/mcp.json` (written atomically). A name that
 * already exists is kept unless `overwrite`; what was skipped is said in `notes`.
 */
export async function importMcpServers(home: string, file: string, overwrite = false, env: NodeJS.ProcessEnv = process.env): Promise<ImportedServers & { added: string[] }> {
  const imported = await readForeignMcpFile(file, env);
  const target = mcpConfigPath(home);
  return inTurn(target, () => addServers(target, imported, overwrite));
}

/** importMcpServers' read, change and write of `target` (in turn with the file's other changes). */
async function addServers(target: string, imported: ImportedServers, overwrite: boolean): Promise<ImportedServers & { added: string[] }> {
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
