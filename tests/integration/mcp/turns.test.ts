/**
 * The mcp-host's McpHost with the real server-everything over stdio, driven through its host
 * port as the relay drives it: calls from two runs take turns on a server, a call waiting for
 * its turn through a reconfiguration is served by the new session, and time a person spends on
 * an elicitation form does not count against the call's timeout.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../../mcp-host/host';
import type { HostToMcpHost, McpHostToHost, McpServerConfig, McpToRunner } from '../../../shared/protocol/mcp';
import type { Port } from '../../../shared/protocol/runner';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const everything = (env: Record<string, string> = {}, timeoutMs?: number): McpServerConfig => ({
  transport: 'stdio',
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  env,
  ...(timeoutMs ? { timeoutMs } : {}),
});

type Result = Extract<McpToRunner, { type: 'result' }>;

function harness() {
  const listeners = new Set<(m: HostToMcpHost) => void>();
  const out: McpHostToHost[] = [];
  const port: Port<HostToMcpHost, McpHostToHost> = {
    post: (m) => void out.push(structuredClone(m)),
    onMessage: (l) => (listeners.add(l), () => listeners.delete(l)),
  };
  new McpHost(port);
  const send = (m: HostToMcpHost) => listeners.forEach((l) => l(structuredClone(m)));
  let id = 0;
  const configure = async (servers: Record<string, McpServerConfig>) => {
    const rid = ++id;
    send({ type: 'request', id: rid, method: 'configure', params: { servers } });
    await until(() => out.some((m) => m.type === 'response' && m.id === rid));
  };
  const toRun = (runId: string) => out.flatMap((m) => (m.type === 'runner' && m.runId === runId ? [m.msg] : []));
  const until = async <T>(f: () => T | undefined | false, ms = 30_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = f();
      if (v) return v;
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const result = (runId: string, callId: string) => until(() => toRun(runId).find((m): m is Result => m.type === 'result' && m.callId === callId));
  const call = (runId: string, callId: string, tool: string, args: Record<string, unknown>) =>
    send({ type: 'runner', runId, msg: { type: 'call', callId, server: 'everything', tool, arguments: args } });
  return { send, configure, toRun, until, result, call };
}

const text = (r: Result) => r.output.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

let h: ReturnType<typeof harness> | undefined;
afterEach(async () => {
  await h?.configure({}); // closes the sessions and their servers
  h = undefined;
});

describe('McpHost: run turns and call clocks with server-everything', () => {
  it('a call waiting for its turn through a reconfiguration is served by the new session', async () => {
    h = harness();
    await h.configure({ everything: everything() });
    h.call('A', 'a1', 'trigger-long-running-operation', { duration: 2, steps: 2 });
    await h.until(() => h!.toRun('A').some((m) => m.type === 'progress'));
    h.call('B', 'b1', 'get-sum', { a: 1, b: 2 });
    await h.until(() => h!.toRun('B').some((m) => m.type === 'log'));
    await h.configure({ everything: everything({ STEPWISE_TEST: '1' }) });
    const a = await h.result('A', 'a1');
    expect(text(a)).toMatch(/was removed or reconfigured/);
    const b = await h.result('B', 'b1');
    expect(text(b)).toBe('The sum of 1 and 2 is 3.');
    expect(b.output.isError).toBe(false);
  }, 60_000);

  it('the time a person spends on an elicitation form does not count against the call timeout', async () => {
    h = harness();
    await h.configure({ everything: everything({}, 1_500) });
    h.call('A', 'e1', 'trigger-elicitation-request', {});
    const req = await h.until(() => h!.toRun('A').find((m): m is Extract<McpToRunner, { type: 'server_request' }> => m.type === 'server_request'));
    expect(req.kind).toBe('elicitation');
    await new Promise((r) => setTimeout(r, 2_500)); // longer than the call's timeout
    h.send({ type: 'runner', runId: 'A', msg: { type: 'server_request_result', requestId: req.requestId, result: { action: 'decline' } } });
    const r = await h.result('A', 'e1');
    expect(text(r)).not.toMatch(/timed out/);
    expect(text(r).toLowerCase()).toContain('decline');
  }, 60_000);
});
