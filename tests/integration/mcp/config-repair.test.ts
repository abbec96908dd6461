/**
 * settings/mcp.json broken and repaired while the host runs (real McpService, real mcp-host,
 * real stdio servers). While the file is broken, Settings shows where (line, column) and the
 * mcp-host keeps the servers of the last valid version — and every tool call made meanwhile
 * says so in its log. Once the file is fixed, the next request lists and uses what it now
 * says, with no further edit or touch of the file.
 */
import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpService } from '../../../main/core/mcp/service';
import { McpToolExecutor } from '../../../agent-runner/tools/mcp-executor';
import type { McpTool } from '../../../shared/thread/tools';
import { context, FAULTY, harness, makeHome, portPair, startService, text } from './harness';
import { cleanups } from '../../support/cleanups';

const defer = cleanups('test');

/** Writes mcp.json with an mtime `secondsAhead` from now (distinct even on coarse file systems). */
function writeConfig(home: string, body: string, secondsAhead: number): void {
  const file = path.join(home, 'settings', 'mcp.json');
  writeFileSync(file, body);
  const t = new Date(Date.now() + secondsAhead * 1000);
  utimesSync(file, t, t);
}

const server = { command: process.execPath, args: [FAULTY] };

describe('a broken settings/mcp.json, then repaired', () => {
  it('is picked up once fixed: the server added by the fix is listed and usable without another touch', async () => {
    const home = makeHome({ first: server });
    const svc: McpService = startService(home);
    defer(() => svc.close());
    expect((await svc.servers()).map((s) => s.name)).toEqual(['first']);

    writeConfig(home, '{ "mcpServers": { "first": { "command": "node", }\n', 2);
    await expect(svc.servers()).rejects.toThrow(/mcp\.json: not valid JSON at line \d+, column \d+/);
    await expect(svc.servers()).rejects.toThrow(/line \d+, column \d+/); // asked again: still broken

    writeConfig(home, JSON.stringify({ mcpServers: { first: server, ghost2: server } }), 4);
    const listed = await svc.servers();
    expect(listed.map((s) => s.name)).toEqual(['first', 'ghost2']);
    expect((await svc.tools('ghost2')).map((t) => t.name)).toContain('ok');
    const h = await harness(svc, 'ghost2');
    defer(() => h.detach());
    const r = await h.call('ok', { text: 'from ghost2' });
    expect(r.out).toEqual({ content: [{ type: 'text', text: 'ok: from ghost2' }], isError: false });
    expect(r.rec.logs).toEqual([]); // the file is valid again: no warning
  }, 60_000);

  it('while broken, tool calls run on the last valid servers and their log says so', async () => {
    const home = makeHome({ first: server });
    const svc: McpService = startService(home);
    defer(() => svc.close());
    const h = await harness(svc, 'first');
    defer(() => h.detach());
    expect((await h.call('ok', { text: 'before' })).rec.logs).toEqual([]);
    const warning = {
      level: 'warning',
      data: {
        logger: 'stepwise',
        data: expect.stringMatching(/settings\/mcp\.json is not valid \(not valid JSON at line 1, column \d+.*\); using the MCP servers from its last valid version \(first\)/),
      },
    };

    // The user adds `ghost2` but breaks the file; a run starts before anything else read it.
    writeConfig(home, '{ "mcpServers": { "first": {}, "ghost2": {} ', 2);
    const run = newRun(svc, 'run-2');
    const r = await run.call(h.tool('ok'), { text: 'while broken' });
    expect(text(r.out)).toBe('ok: while broken');
    expect(r.rec.logs).toEqual([warning]);
    const ghost = await run.call({ ...h.tool('ok'), server: 'ghost2' }, { text: 'x' });
    expect(ghost.out.isError).toBe(true);
    expect(text(ghost.out)).toMatch(/MCP server "ghost2" is not configured \(configured: first\)\. .*mcp\.json is not valid \(not valid JSON at line 1/);

    await expect(svc.servers()).rejects.toThrow(/line 1, column \d+/);
    expect((await h.call('ok', { text: 'older run' })).rec.logs).toEqual([warning]);

    writeConfig(home, JSON.stringify({ mcpServers: { first: server } }), 4);
    await svc.servers();
    expect((await h.call('ok', { text: 'after' })).rec.logs).toEqual([]);
  }, 60_000);
});

/** A run attached to the service now (as a run start does), calling through the real McpToolExecutor. */
function newRun(svc: McpService, runId: string) {
  const [runnerEnd, hostEnd] = portPair();
  const { detach } = svc.attach(runId, hostEnd);
  defer(detach);
  const executor = new McpToolExecutor(runnerEnd);
  let n = 0;
  return {
    call: async (tool: McpTool, args: Record<string, unknown>) => {
      const { ctx, rec } = context({ nodeId: `${runId}-node-${++n}` });
      const out = await executor.execute(tool, { id: `${runId}-call-${n}`, name: tool.name, arguments: args }, ctx);
      return { out, rec };
    },
  };
}
