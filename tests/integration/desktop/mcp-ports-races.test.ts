/**
 * Races of the run ↔ mcp-host transports (found by a QA pass), through real processes and
 * real servers, on both shells' adapters (see mcp-host-harness.ts; the Electron adapter runs
 * over the stand-ins of utility-standin.ts because the Electron binary cannot run here):
 *
 * - concurrent runs calling one server: a server's sampling request is answered by the run
 *   whose call caused it (one run's calls at a time per server, run-turns.ts);
 * - Stop while a call waits for the mcp-host to restart ends the call at once;
 * - brokered only: a port request in the moment between an mcp-host dying and its exit being
 *   reported gets a fresh channel to the restarted mcp-host; nothing is created for an
 *   mcp-host that cannot start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpSupervisor } from '../../../main/core/mcp/supervisor';
import type { ProcessSpawner } from '../../../main/core/process/types';
import { UtilityProcessSpawner } from '../../../main/electron/utility-spawner';
import { waitFor } from '../../support/host-harness';
import { bundledEntry } from './bundle';
import { adapters, startHost, text, type McpHost } from './mcp-host-harness';
import { standInFork, standInMessageChannel } from './utility-standin';

const hosts: McpHost[] = [];
let sup: McpSupervisor | undefined;
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  await sup?.stop();
  sup = undefined;
});

async function setup(spawner: ProcessSpawner, opts: Parameters<typeof startHost>[1] = {}): Promise<McpHost> {
  const h = await startHost(spawner, opts);
  hosts.push(h);
  return h;
}

const sampling = { name: 'trigger-sampling-request', arguments: { prompt: 'Write a haiku about the tide coming in.', maxTokens: 60 } };

describe.each(adapters)('%s', (_name, _mode, make) => {
  it("two runs at once on one server: run B's sampling request is answered by run B, not by run A", async () => {
    const h = await setup(make());
    const a = await h.open([{ name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 2 } }]);
    const b = await h.open([sampling]);
    const ra = await h.runTools(a);
    await waitFor(() => h.nodes(ra).some((n) => n.name === 'trigger-long-running-operation' && n.status === 'running'), 30_000, 'A running');
    const rb = await h.runTools(b);
    expect(await h.ended(rb)).toBe('completed');
    expect(await h.ended(ra)).toBe('completed');
    expect(h.nodes(ra).filter((n) => n.kind === 'sampling')).toHaveLength(0);
    const trig = h.nodes(rb).find((n) => n.name === 'trigger-sampling-request')!;
    expect(h.nodes(rb).find((n) => n.kind === 'sampling')?.parentId).toBe(trig.id);
    expect(text(h.output(rb, 'trigger-sampling-request'))).toContain('Grey water climbs in');
    // B's call said why it waited.
    const logs = (trig.attrs?.logs ?? []) as { level: string; data: { logger?: string; data?: unknown } }[];
    expect(logs.map((l) => l.data.data)).toContainEqual(expect.stringMatching(/^Waiting for another run's calls to "everything" to end/));
  }, 90_000);

  it('three runs of the example at once: each run gets exactly its own sampling node, under its own call', async () => {
    const h = await setup(make());
    const calls = [{ name: 'get-sum', arguments: { a: 17, b: 25 } }, sampling];
    const threads = await Promise.all([h.open(calls), h.open(calls), h.open(calls)]);
    const runs = await Promise.all(threads.map((t) => h.runTools(t)));
    for (const r of runs) await h.ended(r);
    const perRun = runs.map((r) => {
      const trig = h.nodes(r).find((n) => n.name === 'trigger-sampling-request');
      const nested = h.nodes(r).filter((n) => n.kind === 'sampling');
      return { status: h.client.ended.get(r), sampling: nested.length, underOwnCall: nested.every((s) => s.parentId === trig?.id), sum: text(h.output(r, 'get-sum')) };
    });
    expect(perRun).toEqual(runs.map(() => ({ status: 'completed', sampling: 1, underOwnCall: true, sum: 'The sum of 17 and 25 is 42.' })));
  }, 120_000);

  it('Stop while the call waits for the mcp-host to restart: the call ends at once, never sent', async () => {
    const h = await setup(make(), { backoffMs: { initial: 8_000, max: 8_000 } });
    const first = await h.runTools(await h.open([{ name: 'get-sum', arguments: { a: 1, b: 1 } }]));
    expect(await h.ended(first)).toBe('completed');
    process.kill(h.mcp.supervisor.pid!, 'SIGKILL');
    await waitFor(() => h.mcp.supervisor.crashes === 1, 5_000, 'exit reported');
    const run = await h.runTools(await h.open([{ name: 'get-sum', arguments: { a: 2, b: 3 } }]));
    await waitFor(() => h.nodes(run).some((n) => n.name === 'get-sum' && n.status === 'running'), 30_000, 'get-sum running');
    await h.conn.request('run.cancel', { runId: run });
    expect(await h.ended(run)).toBe('cancelled');
    expect(text(h.output(run, 'get-sum'))).toMatch(/^MCP call cancelled before it reached the mcp-host/);
  }, 90_000);
});

describe('brokered ports: the moment an mcp-host dies', () => {
  const brokered = (exitGraceMs?: number) => new UtilityProcessSpawner(standInFork, { messageChannel: standInMessageChannel, ...(exitGraceMs ? { exitGraceMs } : {}) });

  it('a channel requested after the exit event, before the exit is reported, goes to the restarted mcp-host', async () => {
    sup = new McpSupervisor({ spawner: brokered(), entry: bundledEntry('mcp-host/index.ts'), config: async () => ({ servers: {} }), backoffMs: { initial: 20, max: 20 } });
    await sup.start();
    expect(sup.epoch).toBe(1);
    process.kill(sup.pid!, 'SIGKILL');
    // Like Electron, the process has no pid once its 'exit' event fired; the spawner reports
    // the exit to the supervisor only after exitGraceMs.
    await waitFor(() => sup!.pid === undefined, 5_000, 'exit event');
    const made: ReturnType<typeof standInMessageChannel>[] = [];
    const { epoch, runnerEnd } = await sup.attachChannel('run-1', () => {
      const c = standInMessageChannel();
      made.push(c);
      return c;
    });
    expect(epoch).toBe(2);
    // The first channel could not be delivered and was closed; the second one is live.
    expect(made).toHaveLength(2);
    expect([made[0].port1.closed, made[0].port2.closed]).toEqual([true, true]);
    expect(runnerEnd).toBe(made[1].port1);
    expect(made[1].port1.closed).toBe(false);
  }, 30_000);

  it('an mcp-host that cannot start: no channel is created, the reason is given', async () => {
    const broken = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-broken-')), 'mcp-host.mjs');
    fs.writeFileSync(broken, 'process.exit(3);\n');
    sup = new McpSupervisor({ spawner: brokered(), entry: broken, config: async () => ({ servers: {} }) });
    let created = 0;
    await expect(sup.attachChannel('run-1', () => (created++, standInMessageChannel()))).rejects.toThrow(/exited during start \(exit code 3\)/);
    expect(created).toBe(0);
  }, 30_000);

  it("a run's first call in that moment is served by the restarted mcp-host", async () => {
    // A wide report delay makes the moment long enough to hit from a test every time.
    const h = await setup(brokered(2_000));
    const first = await h.runTools(await h.open([{ name: 'get-sum', arguments: { a: 1, b: 1 } }]));
    expect(await h.ended(first)).toBe('completed');
    process.kill(h.mcp.supervisor.pid!, 'SIGKILL');
    await waitFor(() => h.mcp.supervisor.pid === undefined, 5_000, 'mcp-host exit event');
    const second = await h.runTools(await h.open([{ name: 'get-sum', arguments: { a: 2, b: 3 } }]));
    expect(await h.ended(second)).toBe('completed');
    expect(text(h.output(second, 'get-sum'))).toBe('The sum of 2 and 3 is 5.');
  }, 90_000);
});
