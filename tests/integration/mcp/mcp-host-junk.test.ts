/**
 * The mcp-host — a real child process started from its real entry, with the real
 * server-everything over stdio behind it — given hostile traffic on its channel from the host
 * (shared/protocol/contract/mcp-channel.ts, HOST_TO_MCP_HOST): a message that breaks the
 * contract is dropped and logged, never acted on and never a crash; a request whose params
 * break its method's schema is answered `bad_request` and changes nothing; valid calls keep
 * working afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import { mcpHostEntry } from '../../../main/core/process/entries';
import type { ChildExit, ChildLink } from '../../../main/core/process/types';
import { HostToMcpHostSchema, MCP_HOST_METHODS } from '../../../shared/protocol/contract/mcp-channel';
import type { McpHostToHost, McpToRunner } from '../../../shared/protocol/mcp';
import { junk } from '../../support/junk';
import { EVERYTHING } from './harness';

const EVERYTHING_CONFIG = { transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} };
type Response = Extract<McpHostToHost, { type: 'response' }>;
type Result = Extract<McpToRunner, { type: 'result' }>;

/** The mcp-host on a Node process link, driven frame by frame. */
function startMcpHost() {
  const link: ChildLink = new NodeSpawner({ stdout: 'pipe' }).spawn(mcpHostEntry(), { name: 'stepwise-mcp-host' });
  const received: McpHostToHost[] = [];
  let stderr = '';
  let exit: ChildExit | undefined;
  link.onFrame((f) => {
    if (f.ch === 'mcp') received.push(f.msg as McpHostToHost);
  });
  link.onStderr((c) => (stderr += c));
  link.onExit((e) => (exit = e));
  const send = (msg: unknown) => link.send({ ch: 'mcp', msg });
  const until = async <T>(find: () => T | undefined, what: string, ms = 20_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = find();
      if (v !== undefined) return v;
      if (exit) throw new Error(`the mcp-host exited (${JSON.stringify(exit)}) waiting for ${what}; stderr: ${stderr.slice(-1500)}`);
      if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms; mcp-host stderr: ${stderr.slice(-1500)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  let nextId = 1_000_000;
  /** Sends one request; resolves with its response. */
  const request = async (method: string, params: unknown): Promise<Response> => {
    const id = nextId++;
    send({ type: 'request', id, method, params });
    return until(() => received.find((m): m is Response => m.type === 'response' && m.id === id), `a response to ${method}`);
  };
  /** Sends one valid call as run `valid-run` (call id `valid`); resolves with its result. */
  const call = async (tool: string, args: Record<string, unknown>, between: () => void = () => {}): Promise<Result> => {
    const from = received.length;
    send({ type: 'runner', runId: 'valid-run', msg: { type: 'call', callId: 'valid', server: 'everything', tool, arguments: args } });
    between();
    return until(
      () => received.slice(from).flatMap((m) => (m.type === 'runner' && m.msg.type === 'result' && m.msg.callId === 'valid' ? [m.msg] : []))[0],
      `the result of ${tool}`,
    );
  };
  return {
    link,
    received,
    send,
    request,
    call,
    stderr: () => stderr,
    exited: () => exit,
  };
}

const text = (r: Result) => r.output.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('');

let h: ReturnType<typeof startMcpHost>;
beforeAll(async () => {
  h = startMcpHost();
  const missing = { transport: 'stdio', command: '/nonexistent/stepwise-mcp-server', args: [], env: {} };
  const r = await h.request('configure', { servers: { everything: EVERYTHING_CONFIG, missing } });
  expect(r.error).toBeUndefined();
});
afterAll(async () => {
  if (!h?.exited()) {
    const gone = new Promise<void>((r) => h.link.onExit(() => r()));
    h.link.kill('SIGTERM');
    await gone;
  }
});

describe('the mcp-host refuses what breaks the contract', () => {
  it('a request whose params break the schema gets bad_request and changes nothing; other refusals carry their codes', async () => {
    const bad = await h.request('configure', { servers: { everything: null } });
    expect(bad.error).toEqual({ code: 'bad_request', message: expect.stringMatching(/^mcp-host method "configure": params\/servers\/everything: /) });
    const noParams = await h.request('tools', undefined);
    expect(noParams.error).toMatchObject({ code: 'bad_request' });
    const unknown = await h.request('launch', {});
    expect(unknown.error).toEqual({ code: 'unknown_method', message: expect.stringContaining(`unknown mcp-host method "launch" (expected ${Object.keys(MCP_HOST_METHODS).join(', ')})`) });
    const notFound = await h.request('tools', { server: 'nope' });
    expect(notFound.error).toEqual({ code: 'not_found', message: expect.stringContaining('unknown MCP server "nope"') });
    const cannotStart = await h.request('tools', { server: 'missing' });
    expect(cannotStart.error).toEqual({ code: 'connect_failed', message: expect.stringContaining('command not found: /nonexistent/stepwise-mcp-server') });
    // The configuration is the one before the refused `configure`.
    const r = await h.call('get-sum', { a: 40, b: 2 });
    expect(text(r)).toBe('The sum of 40 and 2 is 42.');
  }, 60_000);

  it('a call without arguments is dropped and logged, never sent to the server', async () => {
    h.send({ type: 'runner', runId: 'valid-run', msg: { type: 'call', callId: 'no-args', server: 'everything', tool: 'echo' } });
    const r = await h.call('get-sum', { a: 1, b: 2 });
    expect(text(r)).toBe('The sum of 1 and 2 is 3.');
    const log = await h.request('serverLog', { server: 'everything' });
    const calls = (log.result as { messages: { method?: string; body: { params?: { name?: string } } }[] }).messages.filter((m) => m.method === 'tools/call');
    expect(calls.map((m) => m.body.params?.name)).not.toContain('echo');
    expect(h.received.some((m) => m.type === 'runner' && m.msg.type === 'result' && m.msg.callId === 'no-args')).toBe(false);
    expect(h.stderr()).toContain('[mcp-host] dropped a malformed "runner" message from the host: /msg/arguments: Expected required property');
  }, 60_000);

  it('property: no junk on its channel crashes it or reaches a server, and a valid call after it still works', async () => {
    const templates = [
      { type: 'request', id: 7, method: 'configure', params: { servers: { everything: EVERYTHING_CONFIG }, notice: 'n' } },
      { type: 'request', id: 8, method: 'tools', params: { server: 'everything' } },
      { type: 'request', id: 9, method: 'serverLog', params: { server: 'everything' } },
      { type: 'runner', runId: 'valid-run', msg: { type: 'call', callId: 'junk', server: 'everything', tool: 'echo', arguments: { message: 'junk' }, roots: ['/tmp'], timeoutMs: 5000 } },
      { type: 'runner', runId: 'valid-run', msg: { type: 'cancel', callId: 'valid', reason: 'junk' } },
      { type: 'runner', runId: 'valid-run', msg: { type: 'server_request_result', requestId: 'q', result: { action: 'decline' }, error: { message: 'x', code: -1 } } },
      { type: 'run_ended', runId: 'valid-run' },
    ];
    let k = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(junk(HostToMcpHostSchema, templates), { minLength: 1, maxLength: 8 }), async (batch) => {
        const from = h.received.length;
        const half = Math.ceil(batch.length / 2);
        for (const m of batch.slice(0, half)) h.send(m);
        k++;
        // The rest goes out while the call is in flight (a forged cancel or run_ended must not stop it).
        const r = await h.call('get-sum', { a: k, b: 1 }, () => batch.slice(half).forEach((m) => h.send(m)));
        expect(text(r)).toBe(`The sum of ${k} and 1 is ${k + 1}.`);
        expect(r.output.isError).toBe(false);
        // A junk request with an integer id is refused, never served.
        for (const m of h.received.slice(from)) {
          if (m.type === 'response' && m.id < 1_000_000) expect(['bad_request', 'unknown_method']).toContain(m.error?.code);
        }
      }),
      { numRuns: 40 },
    );
    expect(h.exited()).toBeUndefined();
    const log = await h.request('serverLog', { server: 'everything' });
    const names = (log.result as { messages: { method?: string; body: { params?: { name?: string } } }[] }).messages.filter((m) => m.method === 'tools/call').map((m) => m.body.params?.name);
    expect(names).not.toContain('echo');
    expect(h.stderr()).not.toMatch(/unhandled rejection/);
  }, 240_000);
});
