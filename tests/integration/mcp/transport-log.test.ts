/**
 * The mcp-host's transport decorator (mcp-host/transport.ts, RecordingTransport) between the
 * SDK's real `Client` and the real server-everything, over stdio, over Streamable HTTP and
 * bundled (in this process, mcp-host/bundled.ts): it records every JSON-RPC message in both
 * directions, forwards the session id and the negotiated protocol version, leaves the SDK's
 * transport untouched, and for stdio captures the server's stderr and reports its PID from
 * start until its process has exited.
 */
import { describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { onStdioServerPids, openTransport } from '../../../mcp-host/transport';
import { BundledServerTransport } from '../../../mcp-host/bundled';
import { EVERYTHING, startEverythingHttp } from './harness';
import { cleanups } from '../../support/cleanups';

type Seen = { dir: 'in' | 'out'; msg: JSONRPCMessage & { id?: string | number; method?: string; result?: unknown } };

const defer = cleanups('file');

async function until(f: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Connects a real Client through the decorator, calls `echo`, closes; returns what was recorded. */
async function session(config: Parameters<typeof openTransport>[0]) {
  const seen: Seen[] = [];
  let stderr = '';
  const t = openTransport(config, { message: (dir, msg) => seen.push({ dir, msg: msg as Seen['msg'] }), stderr: (c) => (stderr += c) });
  const client = new Client({ name: 'transport-log-test', version: '1.0.0' });
  await client.connect(t);
  const afterConnect = { sessionId: t.sessionId };
  const echo = await client.callTool({ name: 'echo', arguments: { message: 'recorded' } });
  return { t, client, seen, echo, afterConnect, stderr: () => stderr };
}

/** Every request has its response, in order: out initialize → in result … out tools/call → in result. */
function expectBothDirections(seen: Seen[]): void {
  const line = seen.map((s) => `${s.dir} ${s.msg.method ?? 'response'}`);
  expect(line.slice(0, 3)).toEqual(['out initialize', 'in response', 'out notifications/initialized']);
  expect(line).toContain('out tools/call');
  const call = seen.find((s) => s.dir === 'out' && s.msg.method === 'tools/call')!;
  const answer = seen.find((s) => s.dir === 'in' && s.msg.method === undefined && s.msg.id === call.msg.id);
  expect(answer?.msg.result).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('recorded') }] });
  for (const s of seen.filter((x) => x.dir === 'in' && x.msg.method === undefined && x.msg.id !== undefined)) {
    expect(seen.some((o) => o.dir === 'out' && o.msg.method !== undefined && o.msg.id === s.msg.id)).toBe(true);
  }
}

describe('RecordingTransport with server-everything', () => {
  it('stdio: both directions recorded, stderr captured, the PID listed from start until the process exited', async () => {
    let pids: number[] = [];
    onStdioServerPids((p) => (pids = p));
    const s = await session({ transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} });
    defer(() => s.client.close());
    const inner = s.t.inner as StdioClientTransport;
    // The SDK's transport is wrapped, not patched.
    expect(inner).toBeInstanceOf(StdioClientTransport);
    expect(Object.hasOwn(inner, 'start')).toBe(false);
    expectBothDirections(s.seen);
    expect(s.stderr()).toContain('Starting default (STDIO) server');
    const pid = inner.pid!;
    expect(pids).toEqual([pid]);
    expect(() => process.kill(pid, 0)).not.toThrow();
    await s.client.close();
    await until(() => pids.length === 0, 'the PID to leave the list');
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  }, 30_000);

  it('Streamable HTTP: both directions recorded, the session id and protocol version reach the SDK transport', async () => {
    const http: { url: string; child: ChildProcess } = await startEverythingHttp();
    defer(() => http.child.kill());
    const s = await session({ transport: 'http', url: http.url, headers: {} });
    defer(() => s.client.close());
    const inner = s.t.inner as StreamableHTTPClientTransport;
    expect(inner).toBeInstanceOf(StreamableHTTPClientTransport);
    expectBothDirections(s.seen);
    expect(s.afterConnect.sessionId).toEqual(expect.any(String));
    expect(s.t.sessionId).toBe(inner.sessionId);
    const init = s.seen.find((x) => x.dir === 'in' && x.msg.method === undefined)!.msg.result as { protocolVersion: string };
    expect(inner.protocolVersion).toBe(init.protocolVersion);
    await s.client.close();
  }, 30_000);

  it('bundled: both directions recorded, no process and no client session id (so the SDK shakes hands); closing ends the server\'s timers', async () => {
    let pids: number[] | undefined;
    onStdioServerPids((p) => (pids = p));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const s = await session({ transport: 'bundled', server: 'everything' });
    defer(() => s.client.close());
    expect(s.t.inner).toBeInstanceOf(BundledServerTransport);
    expectBothDirections(s.seen);
    expect(s.afterConnect.sessionId).toBeUndefined();
    expect(s.client.getServerVersion()).toMatchObject({ name: 'mcp-servers/everything' });
    expect(pids).toBeUndefined();
    // Simulated logging runs on a 5 s interval in this process until the server's cleanup.
    const started = await s.client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    expect(JSON.stringify(started)).toContain('Started simulated');
    expect(timers()).toBeGreaterThan(before);
    await s.client.close();
    // At most as many as before (an earlier test's session may end meanwhile); the server's interval is gone.
    expect(timers()).toBeLessThanOrEqual(before);
    await expect(s.t.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toThrow('bundled MCP server "everything": not connected');
  });
});
