/**
 * mcp-host entry: one long-lived process owning the MCP client sessions (docs/architecture.md#mcp-channel). It talks
 * to the host on the `mcp` channel of its process link. Runners reach it through the host's
 * relay (Node) or through a port the host brokers per run (Electron: `attach_port`).
 */
import { channelPort, onTransfer, transferredPort } from '../shared/process-port.node.js';
import type { McpHostToHost, McpToRunner } from '../shared/protocol/mcp';
import { HOST_TO_MCP_HOST } from '../shared/protocol/contract/mcp-channel';
import { messageGate } from '../shared/protocol/contract/gate';
import { McpHost } from './host';
import { killStdioServers, onStdioServerPids } from './transport';

const hostPort = channelPort<unknown, McpHostToHost>('mcp');
const host = new McpHost(hostPort);
onStdioServerPids((pids) => hostPort.post({ type: 'server_pids', pids }));
// The only message that carries a port: a run's end of a brokered channel.
const attachGate = messageGate('mcp-host', { attach_port: HOST_TO_MCP_HOST.attach_port });
onTransfer('mcp', (msg, ports) => {
  if (attachGate.accept(msg, 'the host') && ports[0]) {
    for (const extra of ports.slice(1)) extra.close();
    host.attachPort(msg.runId, transferredPort<unknown, McpToRunner>(ports[0]));
  } else {
    for (const p of ports) p.close();
  }
});

// A server's stray rejection must not take down every other server's session.
process.on('unhandledRejection', (err) => {
  process.stderr.write(`[mcp-host] unhandled rejection: ${err instanceof Error ? err.stack : String(err)}\n`);
});
process.on('disconnect', () => process.exit(0));
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => process.exit(0));
// However this process ends, the stdio servers it started end with it.
process.on('exit', killStdioServers);
