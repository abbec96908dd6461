/**
 * What the Servers view shows, through the real host → mcp-host → server-everything (stdio):
 * the server's info, capabilities and instructions from `initialize`; its protocol log (every
 * message in and out, not only a call's) with filters, and live through `onLog`; roots set
 * from the UI announced with `notifications/roots/list_changed` and answered on `roots/list`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { McpLogEntry } from '../../../shared/protocol/mcp';
import { cleanups } from '../../support/cleanups';
import { EVERYTHING, makeHome, startService } from './harness';

const defer = cleanups('file');

describe('MCP server view', () => {
  const svc = startService(makeHome({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }));
  defer(() => svc.close());
  const live: { server: string; entry: McpLogEntry }[] = [];
  svc.onLog((server, entry) => live.push({ server, entry }));

  it('server info, capabilities and instructions from initialize', { timeout: 60_000 }, async () => {
    expect((await svc.test('everything')).ok).toBe(true);
    const [info] = await svc.servers();
    expect(info.status).toBe('connected');
    expect(info.serverInfo?.name).toEqual(expect.any(String));
    expect(info.serverInfo?.version).toEqual(expect.any(String));
    expect(info.capabilities).toMatchObject({ tools: expect.any(Object), resources: expect.any(Object), prompts: expect.any(Object) });
    expect(info.instructions).toEqual(expect.stringMatching(/\S/));
  });

  it('the protocol log holds every message in and out, filters by direction, method and errors, and arrives live', { timeout: 60_000 }, async () => {
    await svc.callTool('everything', 'get-sum', { a: 1, b: 2 });
    // A sampling request during the call, declined by the direct caller: our answer is a JSON-RPC error.
    await svc.callTool('everything', 'trigger-sampling-request', { prompt: 'hi', maxTokens: 5 });
    const all = (await svc.serverLog('everything')).messages;
    const methods = all.map((e) => `${e.dir} ${e.method ?? `#${e.id}`}`);
    expect(methods).toContain('out initialize');
    expect(methods).toContain('out notifications/initialized');
    expect(methods).toContain('out tools/list');
    expect(methods).toContain('in sampling/createMessage');

    const calls = (await svc.serverLog('everything', { method: 'tools/call' })).messages;
    const sum = calls.find((e) => (e.body as { params?: { name?: string } }).params?.name === 'get-sum')!;
    expect(sum.dir).toBe('out');
    const answer = calls.find((e) => e.dir === 'in' && e.id === sum.id)!;
    expect((answer.body as { result: { content: { text: string }[] } }).result.content[0].text).toBe('The sum of 1 and 2 is 3.');
    expect(calls.every((e) => e.method === 'tools/call' || e.method === undefined)).toBe(true);

    const incoming = (await svc.serverLog('everything', { dir: 'in' })).messages;
    expect(incoming.length).toBeGreaterThan(0);
    expect(incoming.every((e) => e.dir === 'in')).toBe(true);

    const errors = (await svc.serverLog('everything', { errors: true })).messages;
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.method === undefined && 'error' in (e.body as object))).toBe(true);
    expect(errors.some((e) => e.dir === 'out' && JSON.stringify(e.body).includes('sampling is not available'))).toBe(true);

    const sampling = (await svc.serverLog('everything', { method: 'sampling/', dir: 'out' })).messages;
    expect(sampling.length).toBe(1);
    expect(sampling[0].id).toBe(errors.find((e) => e.dir === 'out')!.id);

    // The same messages reached the live listener, in order.
    const liveSum = live.filter((l) => l.server === 'everything').map((l) => l.entry);
    expect(liveSum.some((e) => e.dir === 'out' && e.method === 'tools/call')).toBe(true);
    expect(liveSum.some((e) => e.dir === 'in' && e.id === sum.id)).toBe(true);
  });

  it('roots set from the view are announced (roots/list_changed) and answered on roots/list', { timeout: 60_000 }, async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-view-roots-')));
    const info = await svc.setRoots('everything', [dir]);
    expect(info.roots).toEqual([dir]);
    // The server asks for the roots when told they changed (its request may follow a moment later).
    let log: McpLogEntry[] = [];
    await expect
      .poll(async () => {
        log = (await svc.serverLog('everything')).messages;
        const sent = log.findIndex((e) => e.dir === 'out' && e.method === 'notifications/roots/list_changed');
        return sent >= 0 && log.some((e, i) => i > sent && e.dir === 'out' && e.method === undefined && JSON.stringify(e.body).includes(pathToFileURL(dir).href));
      }, { timeout: 10_000 })
      .toBe(true);
    const changed = log.findIndex((e) => e.dir === 'out' && e.method === 'notifications/roots/list_changed');
    expect(changed).toBeGreaterThanOrEqual(0);
    const ask = log.findIndex((e, i) => i > changed && e.dir === 'in' && e.method === 'roots/list');
    expect(ask).toBeGreaterThan(changed);
    const answer = log.find((e, i) => i > ask && e.dir === 'out' && e.id === log[ask].id)!;
    expect((answer.body as { result: { roots: { uri: string }[] } }).result.roots).toEqual([expect.objectContaining({ uri: pathToFileURL(dir).href })]);
    // And the server sees them.
    const r = await svc.callTool('everything', 'get-roots-list', {});
    expect(JSON.stringify(r.output.content)).toContain(pathToFileURL(dir).href);
  });
});
