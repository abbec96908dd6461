/**
 * The renderer checks what it receives against the contract (renderer/src/host/checked.ts):
 * an answer that does not match its method's result schema fails the call with `bad_response`
 * naming the method and the problem; a push that matches no push schema is dropped, with one
 * console warning per push type (rate-limited). The web adapter (over a real WebSocket) and the
 * desktop adapter (over a stand-in preload API) both apply it; the desktop adapter decodes the
 * IPC's `{ ok, result | error }` outcomes.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, WebSocket as NodeWebSocket } from 'ws';
import { Value } from '@sinclair/typebox/value';
import { createWebHost } from '../../../renderer/src/host/web';
import { createDesktopHost, type StepwisePreloadApi } from '../../../renderer/src/host/desktop';
import { withChecks } from '../../../renderer/src/host/checked';
import { HostCallError, type HostServices } from '../../../renderer/src/host/types';
import { PushHub, pushIterable } from '../../../renderer/src/host/push-queue';
import { HostPushSchema } from '../../../shared/protocol/contract/host-pushes';
import type { HostPush } from '../../../shared/protocol/host-api';

const servers: WebSocketServer[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  vi.restoreAllMocks();
});

const delta = (seq: number): HostPush => ({ v: 1, type: 'llm_delta', runId: 'r', nodeId: 'n', channel: 'text', index: 0, delta: `d${seq}`, seq });

/** Reads `n` pushes from `host` (or until `stop` arrives). */
async function read(host: HostServices, n: number): Promise<HostPush[]> {
  const got: HostPush[] = [];
  for await (const p of host.pushes()) {
    got.push(p);
    if (got.length === n) break;
  }
  return got;
}

describe('the web adapter checks answers and pushes', () => {
  it('a malformed answer fails the call with bad_response; malformed pushes never reach the app', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    servers.push(wss);
    await new Promise<void>((r) => wss.once('listening', () => r()));
    const port = (wss.address() as { port: number }).port;
    let sock: NodeWebSocket | undefined;
    wss.on('connection', (ws) => {
      sock = ws;
      ws.on('message', (data) => {
        const f = JSON.parse(String(data)) as { id: number; method: string };
        if (f.method === 'workspace.list') ws.send(JSON.stringify({ id: f.id, result: [{ path: 'a.json', kind: 'file', title: 'a' }] }));
        else if (f.method === 'run.get') ws.send(JSON.stringify({ id: f.id, error: 'no such run' }));
        else ws.send(JSON.stringify({ id: f.id, result: { ok: true } }));
      });
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const host = createWebHost(`http://127.0.0.1:${port}`, 'tok', { WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket, schedule: (cb) => setTimeout(cb, 5) });
    try {
      await expect(host.call('workspace.list', {})).rejects.toMatchObject({
        code: 'bad_response',
        method: 'workspace.list',
        message: expect.stringMatching(/^workspace\.list: .*\/0\/kind: /),
      });
      // A malformed error field is still an error, not a success.
      await expect(host.call('run.get', { threadId: 't', runId: 'r' })).rejects.toMatchObject({ code: 'internal', method: 'run.get' });
      const reading = read(host, 2);
      await new Promise((r) => setTimeout(r, 20));
      const junk = [{ type: 'llm_delta', runId: 'r' }, { type: 'mystery' }, 'text', null, { type: 'notice', level: 'loud', message: 'x' }];
      for (const p of junk) sock!.send(JSON.stringify({ push: p }));
      sock!.send(JSON.stringify({ push: delta(1) }));
      for (const p of junk) sock!.send(JSON.stringify({ push: p }));
      sock!.send(JSON.stringify({ push: delta(2) }));
      expect(await reading).toEqual([delta(1), delta(2)]);
      // One warning per push type however many were dropped.
      expect(warn.mock.calls.map((c) => String(c[0]).split(':')[0])).toEqual([
        'host push "llm_delta" dropped',
        'host push "mystery" dropped',
        'host push "(no type)" dropped',
        'host push "notice" dropped',
      ]);
    } finally {
      host.close();
    }
  });
});

describe('withChecks', () => {
  function fake(results: Record<string, unknown>, pushes: unknown[]): HostServices {
    return {
      presentational: false,
      call: async (method) => results[method] as never,
      pushes: (signal) =>
        pushIterable<HostPush>((l) => {
          queueMicrotask(() => pushes.forEach((p) => l(p as HostPush)));
          return () => {};
        }, signal),
    };
  }

  it('passes valid answers through and names the method and the path of a bad one', async () => {
    const host = withChecks(fake({ 'thread.edit': { version: 3 }, 'run.start': { runId: 7 } }, []));
    expect(await host.call('thread.edit', { threadId: 't', baseVersion: 2, patches: [] })).toEqual({ version: 3 });
    const err = await host.call('run.start', { threadId: 't', mode: 'step' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect(err).toMatchObject({ code: 'bad_response', method: 'run.start', message: "run.start: the host's answer does not match the contract: /runId: Expected string" });
  });

  it('checks each push once for every reader, and warns again per type only after everyMs, counting the drops', async () => {
    const hub = new PushHub<HostPush>();
    const source: HostServices = { presentational: false, call: async () => ({}) as never, pushes: (signal) => pushIterable(hub.subscribe, signal) };
    const lines: string[] = [];
    let t = 0;
    const host = withChecks(source, { warn: (l) => lines.push(l), now: () => t, everyMs: 1000 });
    const bad = { type: 'tree_update', v: 1, runId: 'r', nodes: [] } as unknown as HostPush;
    const emit = async (pushes: HostPush[], n: number) => {
      const readers = Promise.all([read(host, n), read(host, n)]);
      await new Promise((r) => setTimeout(r, 0));
      for (const p of pushes) hub.emit(p);
      return readers;
    };
    const [a, b] = await emit([bad, delta(1), bad, bad, delta(2)], 2);
    expect(a).toEqual([delta(1), delta(2)]);
    expect(b).toEqual([delta(1), delta(2)]);
    const first = 'host push "tree_update" dropped: it does not match the contract: /nodes: Expected array length to be greater or equal to 1';
    expect(lines).toEqual([first]);
    t = 999;
    await emit([{ ...bad }, delta(3)], 1);
    expect(lines).toHaveLength(1);
    t = 1000;
    await emit([{ ...bad }, delta(4)], 1);
    expect(lines).toEqual([first, `${first} (1 more dropped since the last warning)`]);
  });

  it('lets through exactly the pushes the contract describes, whatever arrives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.anything(), fc.record({ type: fc.constantFrom('llm_delta', 'notice', 'run_ended', 'thread_patch'), v: fc.constant(1), runId: fc.string() }))), async (items) => {
        const host = withChecks(fake({}, [...items, delta(99)]), { warn: () => {} });
        const got = await read(host, items.filter((p) => Value.Check(HostPushSchema, p)).length + 1);
        expect(got).toEqual([...items.filter((p) => Value.Check(HostPushSchema, p)), delta(99)]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the desktop adapter decodes IPC outcomes', () => {
  function api(invoke: StepwisePreloadApi['invoke']): StepwisePreloadApi {
    return { invoke, onPush: () => () => {} };
  }

  it('result, error with its code, malformed outcome, and a failed invoke', async () => {
    const ok = createDesktopHost(api(async () => ({ ok: true, result: { version: 4 } })));
    expect(await ok.call('thread.edit', { threadId: 't', baseVersion: 3, patches: [] })).toEqual({ version: 4 });
    const refused = createDesktopHost(api(async () => ({ ok: false, error: { message: 'stale', code: 'version_mismatch' } })));
    await expect(refused.call('thread.edit', { threadId: 't', baseVersion: 3, patches: [] })).rejects.toMatchObject({ message: 'stale', code: 'version_mismatch', method: 'thread.edit' });
    const odd = createDesktopHost(api(async () => ({ version: 4 }) as never));
    await expect(odd.call('thread.edit', { threadId: 't', baseVersion: 3, patches: [] })).rejects.toMatchObject({ code: 'bad_response', method: 'thread.edit' });
    const gone = createDesktopHost(api(async () => Promise.reject(new Error("Error invoking remote method 'stepwise:invoke': Error: No handler registered"))));
    await expect(gone.call('workspace.list', {})).rejects.toMatchObject({ code: 'internal', message: 'No handler registered' });
    const wrong = createDesktopHost(api(async () => ({ ok: true, result: { version: -1 } })));
    await expect(wrong.call('thread.edit', { threadId: 't', baseVersion: 3, patches: [] })).rejects.toMatchObject({ code: 'bad_response' });
  });
});
