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
import { createHostCore, type HostCore } from '../../../main/core/host-core';
import { McpService } from '../../../main/core/mcp/service';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import type { ChildFrame, ChildLink, ProcessSpawner } from '../../../main/core/process/types';
import { UtilityProcessSpawner } from '../../../main/electron/utility-spawner';
import type { ExecNode as Node } from '../../../shared/protocol/nodes';
import type { Thread, ToolOutput } from '../../../shared/thread/schema';
import { makeHome, RecordingClient, waitFor, writeThread } from '../../support/host-harness';
import { bundledEntry } from './bundle';
import { channelTraffic, standInFork, standInMessageChannel } from './utility-standin';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FAULTY = path.resolve('tests/support/mcp-servers/faulty.mjs');
const example = JSON.parse(fs.readFileSync(path.resolve('resources/examples/MCP agent, step by step.json'), 'utf8')) as Thread;

type Mode = 'relay' | 'port';
const adapters: [string, Mode, () => ProcessSpawner][] = [
  ['NodeSpawner: the host relays', 'relay', () => new NodeSpawner({ stdout: 'pipe' })],
  ['UtilityProcessSpawner + MessageChannelMain (stand-ins): brokered ports', 'port', () => new UtilityProcessSpawner(standInFork, { messageChannel: standInMessageChannel })],
];

/** What crossed the host's process links, per child name prefix. */
interface Seen {
  toChild: { name: string; frame: ChildFrame; ports: number }[];
  fromChild: { name: string; frame: ChildFrame }[];
  links: { name: string; link: ChildLink }[];
}

/** Wraps a spawner so the test sees every frame on every process link. */
function spying(inner: ProcessSpawner): { spawner: ProcessSpawner; seen: Seen } {
  const seen: Seen = { toChild: [], fromChild: [], links: [] };
  const spawner: ProcessSpawner = {
    spawn(entry, options) {
      const link = inner.spawn(entry, options);
      const name = options.name;
      link.onFrame((frame) => seen.fromChild.push({ name, frame }));
      const wrapped: ChildLink = {
        get pid() {
          return link.pid;
        },
        send: (frame) => {
          seen.toChild.push({ name, frame, ports: 0 });
          link.send(frame);
        },
        onFrame: (l) => link.onFrame(l),
        onExit: (l) => link.onExit(l),
        onStderr: (l) => link.onStderr(l),
        kill: (s) => link.kill(s),
        ...(link.sendWithPorts
          ? {
              sendWithPorts: (frame: ChildFrame, ports: Parameters<NonNullable<ChildLink['sendWithPorts']>>[1]) => {
                seen.toChild.push({ name, frame, ports: ports.length });
                return link.sendWithPorts!(frame, ports);
              },
            }
          : {}),
      };
      seen.links.push({ name, link: wrapped });
      return wrapped;
    },
    ...(inner.createChannel ? { createChannel: () => inner.createChannel!() } : {}),
  };
  return { spawner, seen };
}

const msgType = (f: ChildFrame) => (f.msg as { type?: string } | null)?.type;

let core: HostCore | undefined;
let mcp: McpService | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
  await mcp?.close();
  mcp = undefined;
});

async function setup(make: () => ProcessSpawner, opts: { mcpHostEntry?: string } = {}) {
  const home = makeHome();
  fs.mkdirSync(path.join(home, 'settings'));
  fs.writeFileSync(
    path.join(home, 'settings', 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        faulty: { command: process.execPath, args: [FAULTY] },
      },
    }),
  );
  const { spawner, seen } = spying(make());
  mcp = new McpService({ home, spawner, entry: opts.mcpHostEntry ?? bundledEntry('agent-runner/mcp-host/index.ts'), backoffMs: { initial: 50, max: 200 } });
  core = await createHostCore({ home, spawner, runnerEntry: bundledEntry('agent-runner/index.ts'), mcp, mcpRelay: mcp, log: () => {}, saveDebounceMs: 20 });
  const client = new RecordingClient();
  const conn = core.connect(client.send);
  await conn.request('stream.subscribe', {});
  const nodes = (runId: string) => {
    const byId = new Map<string, Node>();
    for (const p of client.pushes) if (p.type === 'tree_update') for (const n of p.nodes) if (n.runId === runId) byId.set(n.id, n);
    return [...byId.values()];
  };
  /** Opens a copy of the example with these pending tool calls and runs the tool step. */
  const open = async (calls: { name: string; arguments: Record<string, unknown> }[], file = `t-${Math.random().toString(36).slice(2)}.json`) => {
    const thread: Thread = structuredClone(example);
    thread.id = crypto.randomUUID();
    thread.model.params.tokensPerSecond = 2000;
    thread.context.tools.push({ type: 'mcp', name: 'hang', server: 'faulty', toolName: 'hang', inputSchema: { type: 'object' } });
    thread.context.messages.push({
      id: crypto.randomUUID(),
      role: 'assistant',
      content: [{ type: 'text', text: 'Calling tools.' }],
      toolCalls: calls.map((c, i) => ({ id: `call-${i}`, ...c })),
    });
    writeThread(home, file, thread);
    await conn.request('thread.open', { path: file });
    return thread;
  };
  const runTools = async (thread: Thread) => {
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'tool' })) as { runId: string };
    return runId;
  };
  const ended = (runId: string) => waitFor(() => client.ended.get(runId), 60_000, `run ${runId} ended`);
  const output = (runId: string, name: string) => nodes(runId).find((n) => n.kind === 'tool' && n.name === name)?.output as ToolOutput | undefined;
  return { home, seen, client, conn, nodes, open, runTools, ended, output };
}

/** Waits until the faulty server has received a `tools/call`. */
async function waitForServerCall(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (mcp!.supervisor.pid && (await mcp!.serverLog('faulty')).messages.some((m) => m.dir === 'out' && m.method === 'tools/call')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the call never reached the server');
}

const text = (o: ToolOutput | undefined) => (o?.content ?? []).map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');

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
    const thread = await h.open([{ name: 'hang', arguments: {} }]);
    const runId = await h.runTools(thread);
    await waitFor(() => h.nodes(runId).some((n) => n.name === 'hang' && n.status === 'running'), 30_000, 'hang running');
    await waitForServerCall();
    const firstPid = mcp!.supervisor.pid!;
    process.kill(firstPid, 'SIGKILL');
    await h.ended(runId);
    // Electron reports only an exit code for a process killed from outside (128 + 9 here).
    expect(text(h.output(runId, 'hang'))).toMatch(/MCP call lost: the mcp-host process crashed \((signal SIGKILL|exit code 137)\) while the call ran/);
    expect(h.output(runId, 'hang')?.isError).toBe(true);

    const again = await h.open([{ name: 'get-sum', arguments: { a: 2, b: 3 } }]);
    const second = await h.runTools(again);
    expect(await h.ended(second)).toBe('completed');
    expect(text(h.output(second, 'get-sum'))).toBe('The sum of 2 and 3 is 5.');
    expect(mcp!.supervisor.pid).not.toBe(firstPid);
    if (mode === 'port') expect(h.seen.toChild.filter((s) => s.ports > 0 && msgType(s.frame) === 'port').map((s) => (s.frame.msg as { epoch: number }).epoch)).toEqual([1, 2]);
  }, 90_000);

  it('a runner killed mid-call: its call is cancelled at the server', async () => {
    const h = await setup(make);
    const thread = await h.open([{ name: 'hang', arguments: {} }]);
    const runId = await h.runTools(thread);
    await waitFor(() => h.nodes(runId).some((n) => n.name === 'hang' && n.status === 'running'), 30_000, 'hang running');
    await waitForServerCall();
    const runner = h.seen.links.find((l) => l.name === `stepwise-run-${runId}`)!.link;
    process.kill(runner.pid!, 'SIGKILL');
    expect(await h.ended(runId)).toBe('interrupted');
    let cancelled = false;
    for (let i = 0; i < 100 && !cancelled; i++) {
      cancelled = (await mcp!.serverLog('faulty')).messages.some((m) => m.dir === 'out' && m.method === 'notifications/cancelled');
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
