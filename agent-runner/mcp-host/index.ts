/**
 * mcp-host entry: one long-lived process owning the MCP client sessions (DESIGN §1). It talks
 * to the host on the `mcp` channel of its process link; the host relays runners' messages.
 */
import { channelPort } from '../process-port';
import type { HostToMcpHost, McpHostToHost } from '../../shared/protocol/mcp';
import { McpHost } from './host';
import { killStdioServers } from './transport';

new McpHost(channelPort<HostToMcpHost, McpHostToHost>('mcp'));

// A server's stray rejection must not take down every other server's session.
process.on('unhandledRejection', (err) => {
  process.stderr.write(`[mcp-host] unhandled rejection: ${err instanceof Error ? err.stack : String(err)}\n`);
});
process.on('disconnect', () => process.exit(0));
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => process.exit(0));
// However this process ends, the stdio servers it started end with it.
process.on('exit', killStdioServers);
