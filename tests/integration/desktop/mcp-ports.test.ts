/**
 * How runs reach the mcp-host, run against both shells' adapters through the real host core,
 * real runner and mcp-host processes and real MCP servers:
 *
 * - Node (`NodeSpawner`): ports cannot cross processes, so the host relays every message.
 * - Electron (`UtilityProcessSpawner` with a `messageChannel`): the host brokers a direct
 *   channel per run; MCP traffic (calls, progress, sampling) never passes through the host.
 *   The Electron binary cannot run here, so `utilityProcess.fork` and `MessageChannelMain` are
 *   stand-ins (utility-standin.ts: a channel end transferred to a child arrives there as a
 *   MessagePortMain-like object; the bytes are routed by this test process, which the code
 *   under test never sees). The runner and mcp-host code run unchanged on their Electron path.
 *
 * Both must give the same results: tool output, nested sampling, a crashed mcp-host failing
 * the call in flight clearly and restarting for the next one, a killed runner's call being
 * cancelled at the server, and a clear error when the mcp-host cannot start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessSpawner } from '../../../main/core/process/types';
import type { ToolOutput } from '../../../shared/thread/messages';
import { waitFor } from '../../support/host-harness';
import { adapters, msgType, startHost, text, type McpHost } from './mcp-host-harness';
import { channelTraffic } from './utility-standin';

const hosts: McpHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

async function setup(make: () => ProcessSpawner, opts: Parameters<typeof startHost>[1] = {}): Promise<McpHost> {
  const h = await startHost(make(), opts);
  hosts.push(h);
  return h;
}

describe.each(adapters)('%s', (_name, mode, make) => {
  it('runs MCP tool calls with nested sampling; brokered, no MCP message passes through the host', async () => {
    const before = channelTraffic.messages;
    const h = await setup(make);
    const thread = await h.open([
      { name: 'get-sum', arguments: { a: 17, b: 25 } },
      { name: 'trigger-sampling-request', arguments: { prompt: 'Write a haiku about the tide coming in.', maxTokens: 60 } },
    ]);
    const runId = await h.runTools(thread);
    expect(await h.ended(runId)).toBe('completed');
    expect(h.output(runId, 'get-sum')).toMatchObject({ content: [{ type: 'text', text: 'The sum of 17 and 25 is 42.' }], isError: false });
    const trig = h.nodes(runId).find((n) => n.name === 'trigger-sampling-request')!;
    const sampling = h.nodes(runId).find((n) => n.kind === 'sampling')!;
    expect(sampling.parentId).toBe(trig.id);
    expect(sampling.status).toBe('completed');
    expect(text(trig.output as ToolOutput)).toContain('Grey water climbs in');
    // Each call's protocol log holds its own messages, also on a fresh connection where both
    // calls start together: the sampling request and its answer sit under the call that caused it.
    const log = (name: string) => ((h.nodes(runId).find((n) => n.name === name)!.attrs?.mcpLog ?? []) as { dir: string; method?: string; id?: unknown }[]);
    expect(log('get-sum').map((e) => e.method)).not.toContain('sampling/createMessage');
    const sampled = log('trigger-sampling-request');
    const request = sampled.find((e) => e.dir === 'in' && e.method === 'sampling/createMessage');
    expect(request).toBeTruthy();
    expect(sampled.some((e) => e.dir === 'out' && e.method === undefined && e.id === request!.id)).toBe(true);

    const runner = `stepwise-run-${runId}`;
    const runnerMcp = h.seen.fromChild.filter((s) => s.name === runner && s.frame.ch === 'mcp').map((s) => msgType(s.frame));
    const toMcpHost = h.seen.toChild.filter((s) => s.name === 'stepwise-mcp-host').map((s) => msgType(s.frame));
    const fromMcpHost = h.seen.fromChild.filter((s) => s.name === 'stepwise-mcp-host').map((s) => msgType(s.frame));
    if (mode === 'relay') {
      // The check below can fail: relayed, the calls and the sampling answer pass through the host.
      expect(runnerMcp).toEqual(expect.arrayContaining(['call', 'call', 'server_request_result']));
      expect(toMcpHost).toContain('runner');
      expect(fromMcpHost).toContain('runner');
    } else {
      expect(runnerMcp).toEqual(['port_request']);
      // The runner's exit (reported just after run_ended reached the client) ends its port at the mcp-host.
      await waitFor(() => h.seen.toChild.some((s) => msgType(s.frame) === 'run_ended'), 10_000, 'run_ended to the mcp-host');
      expect(h.seen.toChild.filter((s) => s.name === 'stepwise-mcp-host' && msgType(s.frame) !== 'request').map((s) => msgType(s.frame))).toEqual(['attach_port', 'run_ended']);
      expect(fromMcpHost).not.toContain('runner');
      // One port went to each side of the channel, and the traffic went over it.
      expect(h.seen.toChild.filter((s) => s.ports > 0).map((s) => [s.name, msgType(s.frame), s.ports])).toEqual([
        ['stepwise-mcp-host', 'attach_port', 1],
        [runner, 'port', 1],
      ]);
      expect(channelTraffic.messages - before).toBeGreaterThanOrEqual(5); // 2 calls, server request + answer, 2 results
    }
  }, 90_000);

  it('the mcp-host killed mid-call: the call fails clearly, the next run restarts it', async () => {
    const h = await setup(make);
    const runId = await h.runHanging();
    const firstPid = h.mcp.supervisor.pid!;
    process.kill(firstPid, 'SIGKILL');
    await h.ended(runId);
    // Electron reports only an exit code for a process killed from outside (128 + 9 here).
    expect(text(h.output(runId, 'hang'))).toMatch(/MCP call lost: the mcp-host process crashed \((signal SIGKILL|exit code 137)\) while the call ran/);
    expect(h.output(runId, 'hang')?.isError).toBe(true);

    const again = await h.open([{ name: 'get-sum', arguments: { a: 2, b: 3 } }]);
    const second = await h.runTools(again);
    expect(await h.ended(second)).toBe('completed');
    expect(text(h.output(second, 'get-sum'))).toBe('The sum of 2 and 3 is 5.');
    expect(h.mcp.supervisor.pid).not.toBe(firstPid);
    if (mode === 'port') expect(h.seen.toChild.filter((s) => s.ports > 0 && msgType(s.frame) === 'port').map((s) => (s.frame.msg as { epoch: number }).epoch)).toEqual([1, 2]);
  }, 90_000);

  it('a runner killed mid-call: its call is cancelled at the server', async () => {
    const h = await setup(make);
    const runId = await h.runHanging();
    const runner = h.seen.links.find((l) => l.name === `stepwise-run-${runId}`)!.link;
    process.kill(runner.pid!, 'SIGKILL');
    expect(await h.ended(runId)).toBe('interrupted');
    let cancelled = false;
    for (let i = 0; i < 100 && !cancelled; i++) {
      cancelled = (await h.mcp.serverLog('faulty')).messages.some((m) => m.dir === 'out' && m.method === 'notifications/cancelled');
      if (!cancelled) await new Promise((r) => setTimeout(r, 50));
    }
    expect(cancelled).toBe(true);
  }, 90_000);

  it('an mcp-host that cannot start: the call ends with a clear error naming why', async () => {
    const broken = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-broken-')), 'mcp-host.mjs');
    fs.writeFileSync(broken, "process.stderr.write('no MCP here\\n'); process.exit(3);\n");
    const h = await setup(make, { mcpHostEntry: broken });
    const thread = await h.open([{ name: 'get-sum', arguments: { a: 1, b: 2 } }]);
    const runId = await h.runTools(thread);
    await h.ended(runId);
    const out = h.output(runId, 'get-sum');
    expect(out?.isError).toBe(true);
    expect(text(out)).toMatch(/MCP unavailable: could not start the mcp-host: the mcp-host exited during start \(exit code 3\)/);
  }, 60_000);
});
