/** `mcp.*`: the configured MCP servers (through the McpService) and settings/mcp.json edits. */
import path from 'node:path';
import { removeMcpServer, saveMcpServer } from '../mcp/edit';
import { importMcpServers } from '../mcp/import';
import { HostError } from '../errors';
import type { HostContext, McpServerCatalog } from '../host-context';
import type { DomainHandlers } from './types';

/**
 * `p`, whose rejection is a HostError with `code` unless it already carries a code of its own
 * (the MCP service and the mcp-host reject with plain Errors that say what went wrong).
 */
async function coded<T>(p: Promise<T> | T, code: string): Promise<T> {
  try {
    return await p;
  } catch (err) {
    const own = (err as { code?: unknown } | null)?.code;
    if (err instanceof HostError || typeof own === 'string') throw err;
    throw new HostError(code, err instanceof Error ? err.message : String(err));
  }
}

function needMcp(ctx: HostContext): McpServerCatalog {
  if (!ctx.mcp) throw new HostError('mcp_unavailable', 'MCP is not available in this host (no mcp-host running)');
  return ctx.mcp;
}

/** The catalog's resource requests, or `mcp_unavailable` when it has none. */
function resources(ctx: HostContext): Required<Pick<McpServerCatalog, 'resourceRequest'>> {
  const mcp = needMcp(ctx);
  if (!mcp.resourceRequest) throw new HostError('mcp_unavailable', 'MCP resources and prompts are not available in this host');
  return { resourceRequest: mcp.resourceRequest.bind(mcp) };
}

export const mcpHandlers: DomainHandlers<'mcp'> = {
  'mcp.resources': async (ctx, _client, p) => coded(resources(ctx).resourceRequest('resources', p), 'mcp_error'),
  'mcp.templates': async (ctx, _client, p) => coded(resources(ctx).resourceRequest('templates', p), 'mcp_error'),
  'mcp.readResource': async (ctx, _client, p) => coded(resources(ctx).resourceRequest('readResource', p), 'mcp_error'),
  'mcp.subscribe': async (ctx, _client, p) => coded(resources(ctx).resourceRequest('subscribe', p), 'mcp_error'),
  'mcp.complete': async (ctx, _client, p) => coded(resources(ctx).resourceRequest('complete', p), 'mcp_error'),
  'mcp.prompts': async (ctx, _client, p) => coded(resources(ctx).resourceRequest('prompts', p), 'mcp_error'),
  'mcp.getPrompt': async (ctx, _client, p) => coded(resources(ctx).resourceRequest('getPrompt', p), 'mcp_error'),
  'mcp.servers': async (ctx) => coded(needMcp(ctx).servers(), 'mcp_error'),
  'mcp.tools': async (ctx, _client, p) => coded(needMcp(ctx).tools(p.server), 'mcp_error'),
  'mcp.test': async (ctx, _client, p) => coded(needMcp(ctx).test(p.server), 'mcp_error'),
  'mcp.serverLog': async (ctx, _client, p) => {
    const mcp = needMcp(ctx);
    if (!mcp.serverLog) throw new HostError('mcp_unavailable', 'this host keeps no MCP protocol log');
    return coded(mcp.serverLog(p.server, p.filter), 'mcp_error');
  },
  'mcp.setRoots': async (ctx, _client, p) => {
    const mcp = needMcp(ctx);
    const relative = p.roots.find((r) => !path.isAbsolute(r));
    if (relative !== undefined) throw new HostError('bad_request', `roots must be absolute folders, not ${JSON.stringify(relative.slice(0, 200))}`);
    if (!mcp.setRoots) throw new HostError('mcp_unavailable', 'this host cannot change MCP roots');
    return coded(mcp.setRoots(p.server, p.roots), 'mcp_error');
  },
  'mcp.authorize': async (ctx, _client, p) => {
    const mcp = needMcp(ctx);
    if (!mcp.authorize) throw new HostError('mcp_unavailable', 'this host cannot sign in to MCP servers');
    return coded(mcp.authorize(p.server), 'mcp_error');
  },
  'mcp.saveServer': async (ctx, _client, p) => {
    await saveMcpServer(ctx.home, p.name, p.entry).catch((err: Error) => {
      throw new HostError('bad_request', err.message);
    });
    return coded(needMcp(ctx).servers(), 'mcp_error');
  },
  'mcp.removeServer': async (ctx, _client, p) => {
    await removeMcpServer(ctx.home, p.name).catch((err: Error) => {
      throw new HostError('not_found', err.message);
    });
    return coded(needMcp(ctx).servers(), 'mcp_error');
  },
  'mcp.import': async (ctx, _client, p) => {
    const r = await importMcpServers(ctx.home, p.file).catch((err: Error) => {
      throw new HostError('bad_request', err.message);
    });
    return { format: r.format, added: r.added, notes: r.notes };
  },
};
