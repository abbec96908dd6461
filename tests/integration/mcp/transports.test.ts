/**
 * The rest of the MCP transports and lifecycles: server-everything over the legacy SSE
 * transport, a tool list that changes (notifications/tools/list_changed), and a server that
 * never finishes the handshake (connect timeout with a clear diagnosis).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { utimesSync, writeFileSync } from 'node:fs';
import type { McpService } from '../../../main/core/mcp/service';
import { EVERYTHING, harness, makeHome, startEverythingHttp, startService, text } from './harness';
import { cleanups } from '../../support/cleanups';

const DYNAMIC = path.resolve('tests/support/mcp-servers/dynamic.mjs');
const SILENT = path.resolve('tests/support/mcp-servers/silent.mjs');

const defer = cleanups('file');

describe('MCP transports and lifecycles', () => {
  it('server-everything over SSE: tools, a call and an image result', async () => {
    const s = await startEverythingHttp('sse');
    defer(() => s.child.kill());
    const svc: McpService = startService(makeHome({ legacy: { type: 'sse', url: s.url } }));
    defer(() => svc.close());
    const h = await harness(svc, 'legacy');
    defer(() => h.detach());
    expect((await svc.servers()).find((x) => x.name === 'legacy')).toMatchObject({ transport: 'sse', status: 'connected' });
    expect(text((await h.call('get-sum', { a: 20, b: 22 })).out)).toBe('The sum of 20 and 22 is 42.');
    const img = await h.call('get-tiny-image', {});
    expect(img.out.content.some((p) => p.type === 'image' && p.mimeType === 'image/png' && p.data.length > 100)).toBe(true);
  });

  it('refreshes the tool list when the server says it changed', async () => {
    const svc: McpService = startService(makeHome({ dyn: { command: process.execPath, args: [DYNAMIC] } }));
    defer(() => svc.close());
    expect((await svc.tools('dyn')).map((t) => t.name).sort()).toEqual(['add-tool', 'log-and-return']);
    const h = await harness(svc, 'dyn');
    defer(() => h.detach());
    expect(text((await h.call('add-tool', {})).out)).toBe('added');
    await expect.poll(async () => (await svc.tools('dyn')).map((t) => t.name).sort(), { timeout: 10_000 }).toEqual(['add-tool', 'extra', 'log-and-return']);
    // A log message the server sends during a call is attached to that call's node.
    const logged = await h.call('log-and-return', {});
    expect(text(logged.out)).toBe('logged');
    expect(logged.rec.logs).toEqual([expect.objectContaining({ level: 'info', data: expect.objectContaining({ data: 'halfway there' }) })]);
  });

  it('picks up an edited settings/mcp.json without a restart', async () => {
    const home = makeHome({ first: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    const svc: McpService = startService(home);
    defer(() => svc.close());
    expect((await svc.servers()).map((x) => x.name)).toEqual(['first']);
    const file = path.join(home, 'settings', 'mcp.json');
    const later = new Date(Date.now() + 2000); // a different mtime even on coarse file systems
    writeFileSync(file, JSON.stringify({ mcpServers: { second: { command: process.execPath, args: [DYNAMIC] } } }));
    utimesSync(file, later, later);
    expect((await svc.servers()).map((x) => x.name)).toEqual(['second']);
    expect((await svc.tools('second')).map((t) => t.name)).toContain('add-tool');
  });

  it('a server that never answers the handshake fails the test with a timeout diagnosis', async () => {
    const svc: McpService = startService(makeHome({ mute: { command: process.execPath, args: [SILENT], timeoutMs: 1500 } }));
    defer(() => svc.close());
    const r = await svc.test('mute');
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/time(d)? ?out|did not answer/i);
    expect(r.message).toContain('mute');
    // Closing the service ends the mcp-host, and with it the hung server (no orphan left).
    await svc.close();
    const alive = () => {
      try {
        return execFileSync('pgrep', ['-f', SILENT], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    };
    await expect.poll(alive, { timeout: 10_000 }).toBe('');
  });
});
