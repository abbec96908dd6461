/**
 * `$STEPWISE_HOME/settings/mcp.json`: `{ "mcpServers": { name: entry } }`, the format Claude
 * Desktop and Cursor use. An entry is stdio (`command`, `args`, `env`, `cwd`) or remote
 * (`"type": "http"` for Streamable HTTP, `"type": "sse"`, with `url` and `headers`). A Stepwise
 * extension: `{ "type": "bundled", "server": "everything" }` is a server bundled with Stepwise,
 * run inside the mcp-host (BUNDLED_MCP_SERVERS in shared/protocol/contract/mcp-channel.ts).
 * `$NAME` / `${NAME}` / `${NAME:-default}` in `env` and `headers` values (and `url`) are read from
 * the environment; `$$` is a literal `$`.
 * A bad entry gets an error naming the file and the JSON pointer, and leaves the others usable.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BundledMcpServer, McpServerConfig } from '../../../shared/protocol/mcp';
import { BUNDLED_MCP_SERVERS } from '../../../shared/protocol/contract/mcp-channel';
import { parseSettingsJson } from '../settings/json-text';

/** An entry as written in mcp.json (before validation and `$ENV` expansion). */
export interface RawMcpServer {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** `"type": "bundled"`: which bundled server. */
  server?: string;
  timeoutMs?: number;
  disabled?: boolean;
  /** Remote servers: OAuth client settings (`clientId`, `clientSecret`, `scope`; `$ENV` references expand). */
  oauth?: Record<string, unknown>;
}

export interface LoadedMcpConfig {
  /** Where it was read from. */
  file: string;
  servers: Record<string, McpServerConfig>;
  /** Transport of every entry, including the broken ones (for the server list). */
  transports: Record<string, McpServerConfig['transport']>;
  /** Server name → what is wrong with its entry. */
  errors: Record<string, string>;
}

/** The settings file for `home`. */
export function mcpConfigPath(home: string): string {
  return path.join(home, 'settings', 'mcp.json');
}

const REF = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Expands `$NAME`, `${NAME}` and `${NAME:-default}` (the default when NAME is unset, as Claude
 * Code's `.mcp.json` reads it) from `env`; `$$` is a literal `$`. Throws naming a missing
 * variable that has no default.
 */
export function expandEnvRefs(value: string, env: NodeJS.ProcessEnv, where: string): string {
  return value.replace(REF, (m, a: string | undefined, dflt: string | undefined, b: string | undefined) => {
    if (m === '$$') return '$';
    const name = (a ?? b)!;
    const v = env[name];
    if (v !== undefined) return v;
    if (dflt !== undefined) return dflt;
    throw new Error(`${where} refers to $${name}, which is not set in the environment`);
  });
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/** The transport an entry asks for, or an error text. */
export function entryTransport(e: RawMcpServer): McpServerConfig['transport'] | string {
  const t = e.type?.toLowerCase();
  if (t === undefined) return e.url !== undefined && e.command === undefined ? 'http' : 'stdio';
  if (t === 'stdio') return 'stdio';
  if (t === 'http' || t === 'streamable-http' || t === 'streamablehttp') return 'http';
  if (t === 'sse') return 'sse';
  if (t === 'bundled') return 'bundled';
  return `unknown "type": ${JSON.stringify(e.type)} (use "stdio", "http", "sse" or "bundled")`;
}

/**
 * Validates one entry and expands its `$ENV` references. `ptr` is its JSON pointer
 * (`/mcpServers/<name>`), used in error messages.
 */
export function resolveServer(raw: unknown, ptr: string, env: NodeJS.ProcessEnv = process.env): McpServerConfig {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`${ptr} must be an object`);
  const e = raw as RawMcpServer;
  const transport = entryTransport(e);
  if (transport !== 'stdio' && transport !== 'http' && transport !== 'sse' && transport !== 'bundled') throw new Error(`${ptr}/type: ${transport}`);
  if (e.timeoutMs !== undefined && !(typeof e.timeoutMs === 'number' && e.timeoutMs > 0)) throw new Error(`${ptr}/timeoutMs must be a positive number of milliseconds`);
  const timeout = e.timeoutMs !== undefined ? { timeoutMs: e.timeoutMs } : {};
  if (transport === 'bundled') {
    if (!(BUNDLED_MCP_SERVERS as readonly unknown[]).includes(e.server)) {
      throw new Error(`${ptr}/server must name a server bundled with Stepwise (${BUNDLED_MCP_SERVERS.map((n) => JSON.stringify(n)).join(', ')}), not ${e.server === undefined ? 'nothing' : JSON.stringify(e.server).slice(0, 80)}`);
    }
    return { transport, server: e.server as BundledMcpServer, ...timeout };
  }
  if (transport === 'stdio') {
    if (typeof e.command !== 'string' || !e.command) throw new Error(`${ptr}/command must be a non-empty string (stdio servers need a command)`);
    if (e.args !== undefined && !(Array.isArray(e.args) && e.args.every((a) => typeof a === 'string'))) throw new Error(`${ptr}/args must be an array of strings`);
    if (e.env !== undefined && !isStringRecord(e.env)) throw new Error(`${ptr}/env must be an object of strings`);
    if (e.cwd !== undefined && typeof e.cwd !== 'string') throw new Error(`${ptr}/cwd must be a string`);
    const envOut: Record<string, string> = {};
    for (const [k, v] of Object.entries(e.env ?? {})) envOut[k] = expandEnvRefs(v, env, `${ptr}/env/${k}`);
    return { transport, command: e.command, args: e.args ?? [], env: envOut, ...(e.cwd ? { cwd: e.cwd } : {}), ...timeout };
  }
  if (typeof e.url !== 'string' || !e.url) throw new Error(`${ptr}/url must be a non-empty string (${transport} servers need a url)`);
  const url = expandEnvRefs(e.url, env, `${ptr}/url`);
  try {
    new URL(url);
  } catch {
    throw new Error(`${ptr}/url is not a valid URL: ${JSON.stringify(e.url)}`);
  }
  if (e.headers !== undefined && !isStringRecord(e.headers)) throw new Error(`${ptr}/headers must be an object of strings`);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.headers ?? {})) headers[k] = expandEnvRefs(v, env, `${ptr}/headers/${k}`);
  return { transport, url, headers, ...timeout, ...resolveOAuth(e.oauth, `${ptr}/oauth`, env) };
}

/** The `oauth` entry of a remote server: optional strings `clientId`, `clientSecret`, `scope`. */
function resolveOAuth(raw: unknown, ptr: string, env: NodeJS.ProcessEnv): { oauth?: NonNullable<Extract<McpServerConfig, { transport: 'http' | 'sse' }>['oauth']> } {
  if (raw === undefined) return {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`${ptr} must be an object ({ "clientId", "clientSecret", "scope" }, all optional)`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k !== 'clientId' && k !== 'clientSecret' && k !== 'scope') throw new Error(`${ptr}/${k} is not an OAuth setting (use clientId, clientSecret, scope)`);
    if (typeof v !== 'string' || !v) throw new Error(`${ptr}/${k} must be a non-empty string`);
    out[k] = expandEnvRefs(v, env, `${ptr}/${k}`);
  }
  return { oauth: out };
}

/** Parses the text of an mcp.json; a file-level problem throws naming `file`. */
export function parseMcpConfig(text: string, file: string, env: NodeJS.ProcessEnv = process.env): LoadedMcpConfig {
  const parsed = parseSettingsJson(text);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.problem}`);
  const doc = parsed.value;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file}: must be a JSON object with "mcpServers"`);
  const servers = (doc as { mcpServers?: unknown }).mcpServers ?? {};
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) throw new Error(`${file}: /mcpServers must be an object of server entries`);
  const out: LoadedMcpConfig = { file, servers: {}, transports: {}, errors: {} };
  for (const [name, raw] of Object.entries(servers as Record<string, unknown>)) {
    if ((raw as RawMcpServer | null)?.disabled === true) continue;
    const ptr = `/mcpServers/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const t = raw && typeof raw === 'object' ? entryTransport(raw as RawMcpServer) : 'stdio';
    out.transports[name] = t === 'http' || t === 'sse' || t === 'bundled' ? t : 'stdio';
    try {
      out.servers[name] = resolveServer(raw, ptr, env);
    } catch (err) {
      out.errors[name] = `${file}: ${(err as Error).message}`;
    }
  }
  return out;
}

/** Loads `$home/settings/mcp.json`; a missing file is an empty configuration. */
export async function loadMcpConfig(home: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedMcpConfig> {
  const file = mcpConfigPath(home);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file, servers: {}, transports: {}, errors: {} };
    throw new Error(`${file}: cannot read: ${(err as Error).message}`, { cause: err });
  }
  return parseMcpConfig(text, file, env);
}
