/**
 * Turns connection and call failures into one clear sentence: what failed and what to try.
 * Kinds: spawn failed, command not found, timeout, unauthorized (HTTP 401), connection
 * refused, server exited, protocol error; and, before connecting, a stdio server that would run
 * the packaged app's own executable as Node, which it cannot do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { APP_EXECUTABLE_ENV, type McpServerConfig } from '../shared/protocol/mcp';

export type DiagnosisKind =
  | 'command_not_found'
  | 'spawn_failed'
  | 'timeout'
  | 'unauthorized'
  | 'connection_refused'
  | 'exited'
  | 'protocol_error'
  | 'http_error'
  | 'app_not_node'
  | 'error';

export interface Diagnosis {
  kind: DiagnosisKind;
  message: string;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function where(config: McpServerConfig): string {
  if (config.transport === 'bundled') return `the bundled server "${config.server}"`;
  return config.transport === 'stdio' ? `\`${[config.command, ...config.args].join(' ')}\`` : config.url;
}

/** The file `command` names (a bare name is looked up on PATH), with links resolved; undefined if none. */
function commandFile(command: string, cwd: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return undefined;
    }
  };
  if (command.includes('/') || command.includes('\\')) return real(path.resolve(cwd ?? process.cwd(), command));
  const exts = process.platform === 'win32' ? ['', '.exe'] : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const ext of exts) {
      const found = real(path.join(dir, command + ext));
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Before connecting: in the packaged desktop app (it names its own executable in
 * `$STEPWISE_APP_EXECUTABLE`, see APP_EXECUTABLE_ENV), a stdio server whose command is that
 * executable with `ELECTRON_RUN_AS_NODE` set would start a second copy of the app, not the
 * script: the app's `runAsNode` fuse is off. Returns the diagnosis to refuse it with (nothing is
 * started), or undefined.
 */
export function diagnoseBeforeConnect(name: string, config: McpServerConfig, env: NodeJS.ProcessEnv = process.env): Diagnosis | undefined {
  const app = env[APP_EXECUTABLE_ENV];
  if (config.transport !== 'stdio' || !app || config.env.ELECTRON_RUN_AS_NODE === undefined) return undefined;
  const appFile = commandFile(app, undefined, env);
  if (!appFile || commandFile(config.command, config.cwd, { ...env, ...config.env }) !== appFile) return undefined;
  return {
    kind: 'app_not_node',
    message: `MCP server "${name}": its command is this app's own executable with ELECTRON_RUN_AS_NODE, but this app cannot run scripts as Node (it would start a second copy of itself); install Node and use \`node\` as the command in settings/mcp.json.`,
  };
}

/** Diagnoses a failed connect (handshake) of server `name`. `stderrTail` is the last stderr lines. */
export function diagnoseConnect(name: string, config: McpServerConfig, error: unknown, timeoutMs: number, stderrTail = ''): Diagnosis {
  const e = error as { code?: unknown; errno?: unknown; cause?: { code?: unknown }; message?: string };
  const tail = stderrTail.trim() ? ` stderr: ${stderrTail.trim().split('\n').slice(-5).join(' | ')}` : '';
  if (config.transport === 'stdio') {
    if (e?.code === 'ENOENT') {
      return { kind: 'command_not_found', message: `MCP server "${name}": command not found: ${config.command} (check the path, or that it is on PATH).` };
    }
    if (typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code)) {
      return { kind: 'spawn_failed', message: `MCP server "${name}": could not start ${where(config)}: ${e.code} (${errText(error)}).` };
    }
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return { kind: 'timeout', message: `MCP server "${name}": timeout: no answer to initialize from ${where(config)} within ${timeoutMs} ms.${tail}` };
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return { kind: 'exited', message: `MCP server "${name}": ${where(config)} closed the connection before the handshake finished (did it exit?).${tail}` };
  }
  const msg = errText(error);
  const status = typeof e?.code === 'number' ? e.code : /\b(?:HTTP |status[: ]|code[: ])(\d{3})\b/i.exec(msg)?.[1];
  if (Number(status) === 401 || /unauthori[sz]ed/i.test(msg) || (error as Error)?.name === 'UnauthorizedError') {
    return { kind: 'unauthorized', message: `MCP server "${name}": unauthorized (HTTP 401) at ${where(config)}: check the Authorization header in settings/mcp.json.` };
  }
  const causeCode = e?.cause?.code ?? e?.code;
  if (causeCode === 'ECONNREFUSED' || /ECONNREFUSED|fetch failed/.test(msg)) {
    return { kind: 'connection_refused', message: `MCP server "${name}": connection refused at ${where(config)} (is the server running?).` };
  }
  if (status && Number(status) >= 400) {
    return { kind: 'http_error', message: `MCP server "${name}": HTTP ${status} from ${where(config)}: ${msg}` };
  }
  if (error instanceof McpError || (error as Error)?.name === 'ZodError' || error instanceof SyntaxError) {
    return { kind: 'protocol_error', message: `MCP server "${name}": protocol error during the handshake: ${msg}${tail}` };
  }
  return { kind: 'error', message: `MCP server "${name}": could not connect to ${where(config)}: ${msg}${tail}` };
}
