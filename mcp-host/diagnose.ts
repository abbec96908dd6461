/**
 * Turns connection and call failures into one clear sentence: what failed and what to try.
 * Kinds: spawn failed, command not found, timeout, unauthorized (HTTP 401), connection
 * refused, server exited, protocol error.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../shared/protocol/mcp';

export type DiagnosisKind =
  | 'command_not_found'
  | 'spawn_failed'
  | 'timeout'
  | 'unauthorized'
  | 'connection_refused'
  | 'exited'
  | 'protocol_error'
  | 'http_error'
  | 'error';

export interface Diagnosis {
  kind: DiagnosisKind;
  message: string;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function where(config: McpServerConfig): string {
  return config.transport === 'stdio' ? `\`${[config.command, ...config.args].join(' ')}\`` : config.url;
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
