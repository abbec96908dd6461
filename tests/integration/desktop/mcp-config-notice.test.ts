/**
 * settings/mcp.json broken while the host runs, through the real host core, runner and
 * mcp-host processes, in both shells' transports (Node relay, Electron brokered ports over
 * stand-ins; see mcp-ports.test.ts): a run started meanwhile runs its MCP tools on the servers
 * of the last valid version, and each tool node's log says so, naming the line and column.
 * Once the file is fixed (with a new server), Settings lists it with no further touch.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerInfo } from '../../../shared/protocol/host-api';
import { adapters, startHost, type McpHost } from './mcp-host-harness';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const hosts: McpHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

/** Writes mcp.json with an mtime `secondsAhead` from now (distinct even on coarse file systems). */
function writeConfig(home: string, body: string, secondsAhead: number): void {
  const file = path.join(home, 'settings', 'mcp.json');
  fs.writeFileSync(file, body);
  const t = new Date(Date.now() + secondsAhead * 1000);
  fs.utimesSync(file, t, t);
}

describe.each(adapters)('%s', (_name, _mode, make) => {
  it('a broken mcp.json: tool calls say they use the last valid servers; the fixed file is listed at once', async () => {
    const h = await startHost(make());
    hosts.push(h);
    const logsOf = (runId: string) => h.nodes(runId).find((n) => n.kind === 'tool' && n.name === 'get-sum')?.attrs?.logs;
    const sum = async () => {
      const runId = await h.runTools(await h.open([{ name: 'get-sum', arguments: { a: 2, b: 3 } }]));
      expect(await h.ended(runId)).toBe('completed');
      expect(h.output(runId, 'get-sum')).toMatchObject({ content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }], isError: false });
      return runId;
    };
    expect(logsOf(await sum())).toBeUndefined();

    writeConfig(h.home, '{ "mcpServers": { "everything": { "command": "node" }, }', 2);
    expect(logsOf(await sum())).toEqual([
      expect.objectContaining({
        level: 'warning',
        data: { logger: 'stepwise', data: expect.stringMatching(/mcp\.json is not valid \(not valid JSON at line 1, column \d+.*\); using the MCP servers from its last valid version \(everything, faulty\)/) },
      }),
    ]);

    const good = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
    writeConfig(h.home, JSON.stringify({ mcpServers: { everything: good, ghost2: good } }), 4);
    const listed = (await h.conn.request('mcp.servers', {})) as McpServerInfo[];
    expect(listed.map((s) => s.name)).toEqual(['everything', 'ghost2']);
    expect(logsOf(await sum())).toBeUndefined();
  }, 90_000);
});
