/**
 * Test harness: a temporary $STEPWISE_HOME with settings/mcp.json, the real McpService (real
 * mcp-host child process, real servers), and the real McpToolExecutor wired to it through an
 * in-memory port pair (standing in for the runner's process link, which the host relays).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { McpService } from '../../../main/core/mcp/service';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import { mcpHostEntry } from '../../../main/core/process/entries';
import { McpToolExecutor } from '../../../agent-runner/tools/mcp-executor';
import type { ToolContext, NestedLlmCall } from '../../../agent-runner/tools/types';
import type { LlmCallResult } from '../../../agent-runner/providers/types';
import type { Port } from '../../../shared/protocol/runner';
import type { McpTool } from '../../../shared/thread/tools';
import type { Thread } from '../../../shared/thread/schema';
import type { ToolOutput } from '../../../shared/thread/messages';
import { toMcpTool } from '../../../shared/protocol/mcp';

export const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = path.resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const FAULTY = path.resolve('tests/support/mcp-servers/faulty.mjs');

export function makeHome(servers: Record<string, unknown>): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-mcp-'));
  fs.mkdirSync(path.join(home, 'settings'));
  fs.writeFileSync(path.join(home, 'settings', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  return home;
}

export function startService(home: string): McpService {
  return new McpService({ home, spawner: new NodeSpawner({ stdout: 'pipe' }), entry: mcpHostEntry(), backoffMs: { initial: 50, max: 200 } });
}

/** Two connected in-memory ports (runner end, host end). */
export function portPair(): [Port<any, any>, Port<any, any>] {
  const a = new Set<(m: unknown) => void>();
  const b = new Set<(m: unknown) => void>();
  const mk = (mine: Set<(m: unknown) => void>, other: Set<(m: unknown) => void>): Port<any, any> => ({
    post: (m) => queueMicrotask(() => other.forEach((l) => l(structuredClone(m)))),
    onMessage: (l) => (mine.add(l), () => mine.delete(l)),
  });
  return [mk(a, b), mk(b, a)];
}

export function thread(roots?: string[]): Thread {
  return {
    version: 1,
    id: 't1',
    title: 'mcp test',
    model: { provider: 'scripted', id: 'scripted-test', params: {} },
    context: { systemPrompt: '', tools: [], messages: [], ...(roots ? { roots } : {}) },
    runRefs: [],
  };
}

export interface Recorded {
  progress: { progress: number; total?: number; message?: string }[];
  logs: { level: string; data: unknown }[];
  attrs: Record<string, unknown>;
  nested: NestedLlmCall[];
  inputs: unknown[];
}

/** A ToolContext that records what the tool does; `nestedLlm` and `awaitInput` answer as given. */
export function context(opts: {
  nodeId: string;
  thread?: Thread;
  signal?: AbortSignal;
  nestedLlm?: (c: NestedLlmCall) => Promise<LlmCallResult>;
  answer?: unknown;
}): { ctx: ToolContext; rec: Recorded } {
  const rec: Recorded = { progress: [], logs: [], attrs: {}, nested: [], inputs: [] };
  const ctx: ToolContext = {
    runId: 'run-1',
    providerIds: ['scripted'],
    nodeId: opts.nodeId,
    thread: opts.thread ?? thread(),
    signal: opts.signal ?? new AbortController().signal,
    progress: (progress, total, message) => rec.progress.push({ progress, total, message }),
    log: (level, data) => rec.logs.push({ level, data }),
    nestedLlm: async (c) => {
      rec.nested.push(c);
      if (!opts.nestedLlm) throw new Error('no nested LLM in this test');
      return opts.nestedLlm(c);
    },
    nestedAgent: async () => ({ text: '', isError: true }),
    awaitInput: async (req) => {
      rec.inputs.push(req);
      return opts.answer;
    },
    setAttrs: (a) => Object.assign(rec.attrs, a),
  };
  return { ctx, rec };
}

/** Executor + relay for one run; `call` runs one tool by name through the whole chain. */
export async function harness(svc: McpService, server: string, runId = 'run-1') {
  const [runnerEnd, hostEnd] = portPair();
  const { detach } = svc.attach(runId, hostEnd);
  const executor = new McpToolExecutor(runnerEnd);
  const tools = await svc.tools(server);
  let n = 0;
  const tool = (name: string): McpTool => {
    const info = tools.find((t) => t.name === name);
    if (!info) throw new Error(`${server} has no tool ${name}: ${tools.map((t) => t.name).join(', ')}`);
    return toMcpTool(server, info);
  };
  const call = async (name: string, args: Record<string, unknown>, o: Omit<Parameters<typeof context>[0], 'nodeId'> = {}): Promise<{ out: ToolOutput; rec: Recorded }> => {
    const { ctx, rec } = context({ ...o, nodeId: `node-${++n}` });
    const out = await executor.execute(tool(name), { id: `call-${n}`, name, arguments: args }, ctx);
    return { out, rec };
  };
  return { tools, tool, call, detach, executor };
}

export function text(out: ToolOutput): string {
  return out.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** What server-everything prints once it listens over each HTTP transport, and its endpoint there. */
const EVERYTHING_HTTP = {
  streamableHttp: { ready: 'listening', endpoint: '/mcp' },
  sse: { ready: 'running on port', endpoint: '/sse' },
} as const;

/** Starts server-everything over Streamable HTTP (or the legacy SSE transport); resolves once it listens. */
export async function startEverythingHttp(transport: keyof typeof EVERYTHING_HTTP = 'streamableHttp'): Promise<{ url: string; child: ChildProcess }> {
  const { ready, endpoint } = EVERYTHING_HTTP[transport];
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, transport], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`server-everything (${transport}) did not start`)), 15_000);
    child.stderr!.on('data', (c: Buffer) => {
      if (!c.toString().includes(ready)) return;
      clearTimeout(t);
      resolve();
    });
    child.on('exit', () => reject(new Error('server-everything exited')));
  });
  return { url: `http://127.0.0.1:${port}${endpoint}`, child };
}

/**
 * The settings/mcp.json entry of server-everything over `transport` (stdio: a child the
 * mcp-host starts; http: one started here over Streamable HTTP, stopped by `defer`).
 */
export async function everythingEntry(transport: 'stdio' | 'http', defer: (step: () => unknown) => void): Promise<Record<string, unknown>> {
  if (transport === 'stdio') return { command: process.execPath, args: [EVERYTHING, 'stdio'] };
  const s = await startEverythingHttp('streamableHttp');
  defer(() => s.child.kill());
  return { type: 'http', url: s.url };
}
