/**
 * Servers connected in the background (McpService `connectInBackground`, what the app's hosts
 * use): with nobody testing them, each configured server's state goes connecting → connected,
 * or → error with the reason, and every change reaches `onStatus` — against the real
 * server-everything over stdio and a command that does not exist, through the real mcp-host.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { McpService } from '../../../main/core/mcp/service';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import { mcpHostEntry } from '../../../main/core/process/entries';
import type { McpServerInfo } from '../../../shared/protocol/host-api';
import { EVERYTHING, makeHome } from './harness';

const open: { svc: McpService; home: string }[] = [];
afterEach(async () => {
  for (const { svc, home } of open.splice(0)) {
    await svc.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
});

function service(connectInBackground: boolean): McpService {
  const home = makeHome({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] }, missing: { command: 'stepwise-no-such-command-xyz' } });
  const svc = new McpService({ home, spawner: new NodeSpawner({ stdout: 'pipe' }), entry: mcpHostEntry(), connectInBackground });
  open.push({ svc, home });
  return svc;
}

/** Resolves once `seen` has a status `status` for `name`. */
function waitFor(seen: McpServerInfo[], name: string, status: McpServerInfo['status']): Promise<McpServerInfo> {
  return new Promise((resolve) => {
    const t = setInterval(() => {
      const hit = seen.find((s) => s.name === name && s.status === status);
      if (hit) {
        clearInterval(t);
        resolve(hit);
      }
    }, 20);
  });
}

describe('MCP servers connected in the background', () => {
  it('each server reports connecting, then connected or error with the reason, without a Test', { timeout: 60_000 }, async () => {
    const svc = service(true);
    const seen: McpServerInfo[] = [];
    svc.onStatus((info) => seen.push(info));
    await svc.servers(); // starts the mcp-host, which is configured and connects on its own
    await waitFor(seen, 'everything', 'connected');
    const failed = await waitFor(seen, 'missing', 'error');
    expect(failed.error).toMatch(/stepwise-no-such-command-xyz/);
    const everything = seen.filter((s) => s.name === 'everything').map((s) => s.status);
    expect(everything).toEqual(['connecting', 'connected']);
    // (A connected server also reports what it said on `initialize`: server info, capabilities.)
    expect(await svc.servers()).toMatchObject([
      { name: 'everything', transport: 'stdio', status: 'connected', serverInfo: { name: expect.any(String) } },
      { name: 'missing', transport: 'stdio', status: 'error', error: failed.error },
    ]);
  });

  it('without it, servers stay disconnected until used (the CLI, tests)', { timeout: 60_000 }, async () => {
    const svc = service(false);
    const seen: McpServerInfo[] = [];
    svc.onStatus((info) => seen.push(info));
    expect((await svc.servers()).map((s) => s.status)).toEqual(['disconnected', 'disconnected']);
    // A probe connects them and answers their state.
    const probed = await svc.servers({ timeoutMs: 20_000 });
    expect(probed.map((s) => s.status)).toEqual(['connected', 'error']);
    expect(seen.map((s) => `${s.name} ${s.status}`).sort()).toEqual(['everything connected', 'everything connecting', 'missing connecting', 'missing error']);
  });
});
