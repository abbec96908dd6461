/**
 * What every `stepwise mcp` subcommand shares: the home, the service started for one command
 * and stopped after it, and the exit codes (see main/cli/commands/mcp.ts).
 */
import os from 'node:os';
import path from 'node:path';
import { McpService } from '../../core/mcp/service';
import { loadMcpConfig, type LoadedMcpConfig } from '../../core/mcp/config';
import { NodeSpawner } from '../../core/process/node-spawner';
import { mcpHostEntry } from '../../core/process/entries';

/** Options every subcommand takes. */
export interface HomeOpts {
  home?: string;
  json?: boolean;
  /** `--root <dir...>`: folders offered to the server as roots (answered on `roots/list`). */
  root?: string[];
}

/**
 * Makes the `--root` folders (absolute) the roots of each of `servers`, before anything connects,
 * so a server that asks for roots as soon as it is initialized gets them; none given: no roots.
 */
export async function offerRoots(svc: McpService, servers: string[], o: HomeOpts): Promise<string[] | undefined> {
  const roots = o.root?.map((r) => path.resolve(r));
  if (roots?.length) for (const s of servers) await svc.setRoots(s, roots);
  return roots;
}

/** The Stepwise home: `--home`, else $STEPWISE_HOME, else ~/.stepwise. */
export function homeOf(o: HomeOpts): string {
  return path.resolve(o.home || process.env.STEPWISE_HOME || path.join(os.homedir(), '.stepwise'));
}

/** An error that ends the command with exit code `code`. */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/**
 * Reads settings/mcp.json, then opens the service, runs `fn`, always stops the mcp-host; maps
 * errors to exit codes. A settings file that cannot be read or parsed is bad input (exit 2),
 * told before any server is started; a server's JSON-RPC error is exit 1; other unexpected
 * errors are connection failures (exit 3).
 */
export async function withService(o: HomeOpts, fn: (svc: McpService, config: LoadedMcpConfig) => Promise<number>): Promise<void> {
  let config: LoadedMcpConfig;
  try {
    config = await loadMcpConfig(homeOf(o));
  } catch (err) {
    process.stderr.write(`stepwise mcp: ${(err as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const svc = new McpService({ home: homeOf(o), spawner: new NodeSpawner({ stdout: 'pipe' }), entry: mcpHostEntry() });
  let code: number;
  try {
    code = await fn(svc, config);
  } catch (err) {
    // A server's own JSON-RPC error (an unknown resource URI, a prompt's missing argument) is exit 1, like a tool error.
    const e = err instanceof ExitError ? err : new ExitError((err as Error).message, (err as { code?: unknown }).code === 'mcp_error' ? 1 : 3);
    process.stderr.write(`stepwise mcp: ${e.message}\n`);
    code = e.code;
  } finally {
    await svc.close().catch(() => {});
  }
  process.exitCode = code;
}

/** Rejects (exit 2) for a server that is not configured or whose entry is broken. */
export function checkServer(c: LoadedMcpConfig, server: string): void {
  if (c.errors[server]) throw new ExitError(c.errors[server], 2);
  if (!c.servers[server]) throw new ExitError(`no MCP server "${server}" in ${c.file} (configured: ${Object.keys(c.servers).join(', ') || 'none'})`, 2);
}

/** The action of a subcommand on one configured `<server>`: checked first (exit 2), then `run` ({@link withService}). */
export function onServer<O extends HomeOpts>(run: (svc: McpService, server: string, o: O) => Promise<number>): (server: string, o: O) => Promise<void> {
  return (server, o) =>
    withService(o, async (svc, config) => {
      checkServer(config, server);
      await offerRoots(svc, [server], o);
      return run(svc, server, o);
    });
}

/** Parses `--<flag>` as a JSON object; anything else is bad input (exit 2) naming the flag. */
export function parseJsonObject(text: string, flag: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ExitError(`--${flag} is not valid JSON: ${(err as Error).message}`, 2);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ExitError(`--${flag} must be a JSON object`, 2);
  return value as Record<string, unknown>;
}

/** Parses `--<flag>` as a JSON object of strings (prompt arguments, template variables); exit 2 otherwise. */
export function parseStringMap(text: string, flag: string): Record<string, string> {
  const value = parseJsonObject(text, flag);
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'string') throw new ExitError(`--${flag}: "${k}" must be a string (MCP ${flag === 'args' ? 'prompt arguments' : 'template variables'} are strings), got ${JSON.stringify(v)}`, 2);
  return value as Record<string, string>;
}
