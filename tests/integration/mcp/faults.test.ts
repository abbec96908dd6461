/**
 * Failure modes end as clear tool errors and the mcp-host recovers for the next call: a server
 * that crashes mid-call, one that hangs (timeout), one that writes garbage to stdout, a server's
 * JSON-RPC error (its prefix said once), a 5 MB result, the mcp-host itself dying mid-call, and
 * connection diagnoses (command not found, HTTP 401).
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpService } from '../../../main/core/mcp/service';
import { FAULTY, freePort, harness, makeHome, startService, text } from './harness';

describe('faulty servers', () => {
  let svc: McpService;
  let h: Awaited<ReturnType<typeof harness>>;
  let unauthorized: http.Server;

  beforeAll(async () => {
    const port = await freePort();
    unauthorized = http.createServer((_req, res) => res.writeHead(401, { 'content-type': 'text/plain' }).end('no token'));
    await new Promise<void>((r) => unauthorized.listen(port, '127.0.0.1', () => r()));
    svc = startService(
      makeHome({
        // Long enough for a node server to start on a loaded 2-core machine (it bounds initialize too).
        faulty: { command: process.execPath, args: [FAULTY], timeoutMs: 2500 },
        missing: { command: 'stepwise-no-such-command-xyz' },
        locked: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer wrong' } },
      }),
    );
    h = await harness(svc, 'faulty');
  });

  afterAll(async () => {
    h?.detach();
    await svc?.close();
    unauthorized?.close();
  });

  async function stillWorks(): Promise<void> {
    const r = await h.call('ok', { text: 'after' });
    expect(r.out).toEqual({ content: [{ type: 'text', text: 'ok: after' }], isError: false });
  }

  it('a server that crashes mid-call: clear error with its stderr, then it is restarted', async () => {
    const r = await h.call('crash', {});
    expect(r.out.isError).toBe(true);
    expect(text(r.out)).toMatch(/closed the connection during the call.*about to crash on purpose/s);
    await stillWorks();
  });

  it('a server that hangs: the call times out and notifications/cancelled is sent', async () => {
    const t0 = Date.now();
    const r = await h.call('hang', {});
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(text(r.out)).toContain('timed out after 2500 ms');
    expect((r.rec.attrs.mcpLog as { method?: string }[]).map((e) => e.method)).toContain('notifications/cancelled');
    await stillWorks();
  });

  it('a server that writes garbage to stdout: protocol error', async () => {
    const r = await h.call('garbage', {});
    expect(r.out.isError).toBe(true);
    expect(text(r.out)).toContain('protocol error');
    expect(text(r.out)).toContain('not JSON-RPC');
    await stillWorks();
  });

  it('a server\'s JSON-RPC error (an SDK server: its message already prefixed) is a tool error saying "MCP error" nowhere twice', async () => {
    const r = await h.call('refuse', {});
    expect(r.out.isError).toBe(true);
    expect(text(r.out)).toBe('MCP tool "refuse" on server "faulty": JSON-RPC error -32602: refused on purpose');
    await stillWorks();
  });

  it('a 5 MB result arrives whole; its log entry is truncated with a marker', async () => {
    const r = await h.call('big', { bytes: 5 * 1024 * 1024 });
    expect(r.out.isError).toBe(false);
    const t = (r.out.content[0] as { text: string }).text;
    expect(t.length).toBe(5 * 1024 * 1024);
    expect(t.endsWith('END')).toBe(true);
    const resp = (r.rec.attrs.mcpLog as { dir: string; truncated?: boolean; body: unknown; size: number }[]).find((e) => e.dir === 'in')!;
    expect(resp.truncated).toBe(true);
    expect(resp.size).toBeGreaterThan(5 * 1024 * 1024);
    expect(String(resp.body)).toMatch(/\[truncated: message is \d+ bytes, first 16384 shown\]$/);
    await stillWorks();
  });

  it('cancel sends notifications/cancelled and ends the call as cancelled', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    const r = await h.call('hang', {}, { signal: ac.signal });
    expect(text(r.out)).toContain('cancelled');
    expect((r.rec.attrs.mcpLog as { method?: string }[]).map((e) => e.method)).toContain('notifications/cancelled');
  });

  it('the mcp-host dying mid-call fails the call clearly and its servers with it; the next call restarts it', async () => {
    const pid = svc.supervisor.pid!;
    let servers: number[] = [];
    setTimeout(() => {
      servers = childrenOf(pid);
      process.kill(pid, 'SIGKILL');
    }, 200);
    const r = await h.call('hang', {});
    expect(text(r.out)).toMatch(/mcp-host process crashed \(signal SIGKILL\)/);
    // The stdio servers it ran do not live on as orphans (Linux: read from /proc).
    expect(servers.length).toBeGreaterThan(0);
    for (let i = 0; i < 50 && servers.some(alive); i++) await new Promise((res) => setTimeout(res, 50));
    expect(servers.filter(alive)).toEqual([]);
    await stillWorks();
    expect(svc.supervisor.pid).not.toBe(pid);
  });

  it('diagnoses connection failures: command not found, HTTP 401', async () => {
    const missing = await svc.test('missing');
    expect(missing).toMatchObject({ ok: false });
    expect(missing.message).toContain('command not found: stepwise-no-such-command-xyz');
    const locked = await svc.test('locked');
    expect(locked.ok).toBe(false);
    expect(locked.message).toContain('unauthorized (HTTP 401)');
    await expect(svc.tools('nope')).rejects.toThrow(/not configured .*configured: faulty, missing, locked/);
    const servers = await svc.servers();
    expect(servers.find((s) => s.name === 'missing')).toMatchObject({ status: 'error' });
  });
});

/** PIDs whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Whether process `pid` still runs (a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
