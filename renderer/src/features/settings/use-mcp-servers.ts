/**
 * The configured MCP servers with their live status: the list `mcp.servers` (or an edit)
 * answered, with every `mcp_server_status` push that arrived after the request went out laid
 * over it. The host connects servers in the background, so the list turns from "connecting"
 * to "connected" (or "error" with the reason) without a Test.
 */
import { useCallback, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import type { McpServerInfo } from '../../../../shared/protocol/host-api';
import type { McpStatusLog } from '../../state/app';
import { useApp } from '../../state/context';

/** `list` with each server's status replaced by one pushed after push number `since`. */
export function withPushedStatus(list: McpServerInfo[], log: McpStatusLog, since: number): McpServerInfo[] {
  return list.map((s) => {
    const pushed = log.latest[s.name];
    return pushed && pushed.seq > since ? pushed.info : s;
  });
}

/**
 * `servers`: the live list (null until the first answer). `track(call)` runs a request that
 * answers the server list (`mcp.servers`, `mcp.saveServer`, `mcp.removeServer`) and makes its
 * answer the base; it rejects as the request does.
 */
export function useMcpServers(): { servers: McpServerInfo[] | null; track(call: () => Promise<McpServerInfo[]>): Promise<McpServerInfo[]> } {
  const app = useApp();
  const log = useAtomValue(app.mcpStatusAtom);
  const [base, setBase] = useState<{ list: McpServerInfo[]; since: number } | null>(null);
  const track = useCallback(
    async (call: () => Promise<McpServerInfo[]>) => {
      const since = app.store.get(app.mcpStatusAtom).seq;
      const list = await call();
      setBase({ list, since });
      return list;
    },
    [app],
  );
  const servers = useMemo(() => (base ? withPushedStatus(base.list, log, base.since) : null), [base, log]);
  return { servers, track };
}
