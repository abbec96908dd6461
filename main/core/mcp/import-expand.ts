/**
 * How each client expands the `${…}` references of its MCP config, turned into Stepwise's
 * settings/mcp.json form. Stepwise expands `${NAME}` / `${NAME:-default}` from the environment
 * in `env`, `headers` and `url` each time it starts a server (main/core/mcp/config.ts), so
 * environment references there stay references (secrets never land in the settings file) and a
 * literal `$` is written `$$`. It expands nothing in `command`, `args` and `cwd`, so references
 * there are resolved here, once, from the host's environment.
 *
 * - Claude Desktop: no expansion; values are taken as written.
 * - Claude Code (`.mcp.json`, `~/.claude.json`): `${VAR}` and `${VAR:-default}` in command,
 *   args, env, url and headers (default when VAR is unset); `$VAR` is not expanded. An unset
 *   `${VAR}` without default stays as written (what Claude Code sends); it is reported.
 * - Cursor (`.cursor/mcp.json`): `${env:NAME}`, `${userHome}`, `${workspaceFolder}` (the folder
 *   holding `.cursor/`), `${workspaceFolderBasename}`, `${pathSeparator}` / `${/}` in command,
 *   args, env, url and headers; `envFile` (stdio) loads more variables, `env` wins.
 * - VS Code (`.vscode/mcp.json`): the same variables in every string, plus `${input:id}`: an
 *   input declared in `inputs` becomes the environment variable named after its id (upper
 *   case, `_` for other characters; a promptString `default` becomes the reference's
 *   default), to be set before the server starts; an input not declared makes VS Code refuse
 *   the server ("Undefined input variable"), so the server is not imported and this is said.
 */
import os from 'node:os';
import path from 'node:path';
import type { RawMcpServer } from './config';

/** The client whose file is imported. */
export type McpClientFormat = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode';

/** A VS Code `inputs` entry. */
export interface VsCodeInput {
  id: string;
  type?: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: unknown[];
}

/** What expansion needs besides the entry. */
export interface ExpandContext {
  format: McpClientFormat;
  /** The project folder (holding `.cursor/` or `.vscode/`), or the file's folder. */
  folder: string;
  env: NodeJS.ProcessEnv;
  inputs: Map<string, VsCodeInput>;
}

/** An imported entry, or why the server is not imported; notes say what the user should know. */
export type ExpandResult = { entry: RawMcpServer; notes: string[]; envFile?: string } | { skip: string; notes: string[] };

/** Fields each client expands (VS Code: all strings). */
const EXPANDED = new Set(['command', 'args', 'env', 'url', 'headers']);
/** Fields Stepwise itself expands at start (references stay references there). */
const RUNTIME = new Set(['env', 'url', 'headers']);

export function inputEnvName(id: string): string {
  return id.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase().replace(/^(\d)/, '_$1');
}

const PATTERN: Record<McpClientFormat, RegExp | null> = {
  'claude-desktop': null,
  'claude-code': /\$\{([^}]+)\}/g,
  cursor: /\$\{([^}]+)\}/g,
  vscode: /\$\{([^}]+)\}/g,
};

/** Converts one server entry of a `format` file. `name` names it in notes. Never throws. */
export function expandServer(name: string, raw: Record<string, unknown>, ctx: ExpandContext): ExpandResult {
  const notes = new Set<string>();
  let skip: string | undefined;
  const { envFile, ...rest } = raw;
  const one = (value: string, runtime: boolean): string => {
    const re = PATTERN[ctx.format];
    if (!re) return runtime ? value.replace(/\$/g, '$$$$') : value;
    let out = '';
    let last = 0;
    for (const m of value.matchAll(re)) {
      out += lit(value.slice(last, m.index), runtime);
      out += ref(m[0], m[1], runtime);
      last = m.index + m[0].length;
    }
    return out + lit(value.slice(last), runtime);
  };
  const lit = (s: string, runtime: boolean) => (runtime ? s.replace(/\$/g, '$$$$') : s);
  const envRef = (v: string, dflt: string | undefined, runtime: boolean, whole: string): string => {
    if (runtime) return dflt === undefined ? `\${${v}}` : `\${${v}:-${dflt.replace(/\$/g, '$$$$')}}`;
    const val = ctx.env[v];
    if (val !== undefined) return val;
    if (dflt !== undefined) return dflt;
    notes.add(`server "${name}": ${whole} is not set in this environment; kept as written`);
    return whole;
  };
  const ref = (whole: string, body: string, runtime: boolean): string => {
    if (ctx.format === 'claude-code') {
      const i = body.indexOf(':-');
      const v = i < 0 ? body : body.slice(0, i);
      const dflt = i < 0 ? undefined : body.slice(i + 2);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) {
        notes.add(`server "${name}": ${whole} names no environment variable Claude Code can read; kept as written`);
        return lit(whole, runtime);
      }
      return envRef(v, dflt, runtime, whole);
    }
    if (body.startsWith('env:')) return envRef(body.slice(4), undefined, runtime, whole);
    if (body === 'userHome') return lit(os.homedir(), runtime);
    if (body === 'workspaceFolder') return lit(ctx.folder, runtime);
    if (body === 'workspaceFolderBasename') return lit(path.basename(ctx.folder), runtime);
    if (body === 'pathSeparator' || body === '/') return path.sep;
    if (ctx.format === 'vscode' && body.startsWith('input:')) {
      const id = body.slice(6);
      const input = ctx.inputs.get(id);
      if (!input) {
        skip = `server "${name}" uses \${input:${id}}, which the file's "inputs" does not declare (VS Code refuses to start it: undefined input variable); not imported`;
        return whole;
      }
      const envName = inputEnvName(id);
      const what = [input.description, input.password ? 'a secret' : undefined, Array.isArray(input.options) ? `one of ${input.options.map((o) => JSON.stringify(typeof o === 'object' && o && 'value' in o ? (o as { value: unknown }).value : o)).join(', ')}` : undefined].filter(Boolean).join('; ');
      notes.add(`input "${id}"${what ? ` (${what})` : ''} is read from $${envName}: set it in the environment${input.default !== undefined ? ` (default ${JSON.stringify(input.default)})` : ''}`);
      return envRef(envName, typeof input.default === 'string' ? input.default : undefined, runtime, whole);
    }
    notes.add(`server "${name}": ${whole} is not a variable Stepwise can expand; kept as written`);
    return lit(whole, runtime);
  };
  const walk = (v: unknown, runtime: boolean): unknown => {
    if (typeof v === 'string') return one(v, runtime);
    if (Array.isArray(v)) return v.map((x) => walk(x, runtime));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, runtime)]));
    return v;
  };
  const entry: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    // Claude Desktop expands nothing: only `$` in the fields Stepwise expands needs escaping.
    const walks = ctx.format === 'claude-desktop' ? RUNTIME.has(k) : ctx.format === 'vscode' || EXPANDED.has(k);
    entry[k] = walks ? walk(v, RUNTIME.has(k)) : v;
  }
  if (skip) return { skip, notes: [...notes] };
  if (envFile !== undefined) {
    if (ctx.format !== 'cursor' && ctx.format !== 'vscode') notes.add(`server "${name}": "envFile" is not read by this client; ignored`);
    else if (typeof envFile !== 'string') notes.add(`server "${name}": "envFile" must be a path; ignored`);
    else return { entry: entry as RawMcpServer, notes: [...notes], envFile: path.resolve(ctx.folder, one(envFile, false)) };
  }
  return { entry: entry as RawMcpServer, notes: [...notes] };
}
