/**
 * Harness for the MCP transport contract tests: the real host core with real runner and
 * mcp-host processes started by a given spawner (Node, or the Electron adapter over the
 * stand-ins of utility-standin.ts), a settings/mcp.json with server-everything and the faulty
 * test server, a spy on every process link, and helpers to run tool steps of the MCP example.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHostCore } from '../../../main/core/host-core';
import { McpService } from '../../../main/core/mcp/service';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import type { ChildFrame, ChildLink, ProcessSpawner, TransferablePort } from '../../../main/core/process/types';
import { UtilityProcessSpawner } from '../../../main/electron/utility-spawner';
import type { ExecNode } from '../../../shared/protocol/nodes';
import type { Thread } from '../../../shared/thread/schema';
import type { ToolOutput } from '../../../shared/thread/messages';
import { makeHome, RecordingClient, waitFor, writeThread } from '../../support/host-harness';
import { bundledEntry } from './bundle';
import { standInFork, standInMessageChannel } from './utility-standin';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FAULTY = path.resolve('tests/support/mcp-servers/faulty.mjs');
const example = JSON.parse(fs.readFileSync(path.resolve('resources/examples/MCP agent, step by step.json'), 'utf8')) as Thread;

export type Mode = 'relay' | 'port';

/** The two shells' spawners: Node (the host relays) and Electron's over stand-ins (brokered ports). */
export const adapters: [string, Mode, (o?: { exitGraceMs?: number }) => ProcessSpawner][] = [
  ['NodeSpawner: the host relays', 'relay', () => new NodeSpawner({ stdout: 'pipe' })],
  [
    'UtilityProcessSpawner + MessageChannelMain (stand-ins): brokered ports',
    'port',
    (o = {}) => new UtilityProcessSpawner(standInFork, { messageChannel: standInMessageChannel, ...o }),
  ],
];

/** What crossed the host's process links. */
export interface Seen {
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
      };
      if (link.sendWithPorts) {
        wrapped.sendWithPorts = (frame: ChildFrame, ports: TransferablePort[]) => {
          seen.toChild.push({ name, frame, ports: ports.length });
          return link.sendWithPorts!(frame, ports);
        };
      }
      seen.links.push({ name, link: wrapped });
      return wrapped;
    },
  };
  if (inner.createChannel) spawner.createChannel = () => inner.createChannel!();
  return { spawner, seen };
}

/** The `type` of a frame's message. */
export const msgType = (f: ChildFrame) => (f.msg as { type?: string } | null)?.type;

/** A tool output's text parts, joined. */
export const text = (o: ToolOutput | undefined) => (o?.content ?? []).map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');

export type McpHost = Awaited<ReturnType<typeof startHost>>;

/** Starts a host core with an McpService on `spawner`; close it with `close()`. */
export async function startHost(spawner0: ProcessSpawner, opts: { mcpHostEntry?: string; backoffMs?: { initial: number; max: number } } = {}) {
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
  const { spawner, seen } = spying(spawner0);
  const mcp = new McpService({ home, spawner, entry: opts.mcpHostEntry ?? bundledEntry('mcp-host/index.ts'), backoffMs: opts.backoffMs ?? { initial: 50, max: 200 } });
  const core = await createHostCore({ home, spawner, runnerEntry: bundledEntry('agent-runner/index.ts'), mcp, mcpRelay: mcp, log: () => {}, saveDebounceMs: 20 });
  const client = new RecordingClient();
  const conn = core.connect(client.send);
  await conn.request('stream.subscribe', {});
  const nodes = (runId: string) => {
    const byId = new Map<string, ExecNode>();
    for (const p of client.pushes) if (p.type === 'tree_update') for (const n of p.nodes) if (n.runId === runId) byId.set(n.id, n);
    return [...byId.values()];
  };
  /** Opens a copy of the MCP example whose last message has these pending tool calls. */
  const open = async (calls: { name: string; arguments: Record<string, unknown> }[]) => {
    const thread: Thread = structuredClone(example);
    thread.id = crypto.randomUUID();
    thread.model.params.tokensPerSecond = 2000;
    thread.context.tools.push({ type: 'mcp', name: 'hang', server: 'faulty', toolName: 'hang', inputSchema: { type: 'object' } });
    thread.context.tools.push({ type: 'mcp', name: 'trigger-long-running-operation', server: 'everything', toolName: 'trigger-long-running-operation', inputSchema: { type: 'object' } });
    thread.context.messages.push({
      id: crypto.randomUUID(),
      role: 'assistant',
      content: [{ type: 'text', text: 'Calling tools.' }],
      toolCalls: calls.map((c, i) => ({ id: `call-${i}`, ...c })),
    });
    const file = `t-${thread.id}.json`;
    writeThread(home, file, thread);
    await conn.request('thread.open', { path: file });
    return thread;
  };
  /** Runs the thread's pending tool calls; resolves with the run id. */
  const runTools = async (thread: Thread) => ((await conn.request('run.start', { threadId: thread.id, mode: 'tool' })) as { runId: string }).runId;
  const ended = (runId: string) => waitFor(() => client.ended.get(runId), 60_000, `run ${runId} ended`);
  const output = (runId: string, name: string) => nodes(runId).find((n) => n.kind === 'tool' && n.name === name)?.output as ToolOutput | undefined;
  /**
   * Opens a thread with one call of the faulty server's `hang` and runs it; resolves with the run
   * id once the call runs and the server has received its `tools/call`.
   */
  const runHanging = async () => {
    const runId = await runTools(await open([{ name: 'hang', arguments: {} }]));
    await waitFor(() => nodes(runId).some((n) => n.name === 'hang' && n.status === 'running'), 30_000, 'hang running');
    for (let i = 0; i < 200; i++) {
      if (mcp.supervisor.pid && (await mcp.serverLog('faulty')).messages.some((m) => m.dir === 'out' && m.method === 'tools/call')) return runId;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the call never reached the server');
  };
  const close = async () => {
    await core.close();
    await mcp.close();
  };
  return { home, mcp, core, seen, client, conn, nodes, open, runTools, ended, output, runHanging, close };
}
