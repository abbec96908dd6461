/** `mcp.*`: the configured MCP servers (through the McpService) and settings/mcp.json edits. */
import { removeMcpServer, saveMcpServer } from '../mcp/edit';
import { importMcpServers } from '../mcp/import';
import { HostError } from '../errors';
import type { HostContext, McpService } from '../host-context';
import type { DomainHandlers } from './types';

function needMcp(ctx: HostContext): McpService {
  if (!ctx.mcp) throw new HostError('mcp_unavailable', 'MCP is not available in this host (no mcp-host running)');
  return ctx.mcp;
}

export const mcpHandlers: DomainHandlers<'mcp'> = {
  'mcp.servers': async (ctx) => needMcp(ctx).servers(),
  'mcp.tools': async (ctx, _client, p) => needMcp(ctx).tools(p.server),
  'mcp.test': async (ctx, _client, p) => needMcp(ctx).test(p.server),
  'mcp.saveServer': async (ctx, _client, p) => {
    await saveMcpServer(ctx.home, p.name, p.entry).catch((err: Error) => {
      throw new HostError('bad_request', err.message);
    });
    return needMcp(ctx).servers();
  },
  'mcp.removeServer': async (ctx, _client, p) => {
    await removeMcpServer(ctx.home, p.name).catch((err: Error) => {
      throw new HostError('not_found', err.message);
    });
    return needMcp(ctx).servers();
  },
  'mcp.import': async (ctx, _client, p) => {
    const r = await importMcpServers(ctx.home, p.file).catch((err: Error) => {
      throw new HostError('bad_request', err.message);
    });
    return { added: r.added, notes: r.notes };
  },
};
