import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repointSeededServer } from './edit';

function home(servers: Record<string, unknown>): string {
  const h = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-edit-'));
  fs.mkdirSync(path.join(h, 'settings'));
  fs.writeFileSync(path.join(h, 'settings', 'mcp.json'), JSON.stringify({ mcpServers: servers, extra: 1 }));
  return h;
}
const read = (h: string) => JSON.parse(fs.readFileSync(path.join(h, 'settings', 'mcp.json'), 'utf8'));
const entry = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe('repointSeededServer', () => {
  it('points a seeded everything server whose script is gone at this installation, keeping the rest', async () => {
    const gone = '/moved/checkout/node_modules/@modelcontextprotocol/server-everything/dist/index.js';
    const h = home({ everything: { command: '/no/such/node', args: [gone, 'stdio'], env: { X: '1' } }, other: { command: 'x' } });
    const line = await repointSeededServer(h, entry, process.execPath);
    expect(line).toBe(`The "everything" MCP server in ${path.join(h, 'settings', 'mcp.json')} pointed to ${gone}, which is gone; it now runs ${entry}.`);
    expect(read(h)).toEqual({ mcpServers: { everything: { command: process.execPath, args: [entry, 'stdio'], env: { X: '1' } }, other: { command: 'x' } }, extra: 1 });
    expect(fs.statSync(path.join(h, 'settings', 'mcp.json')).mode & 0o777).toBe(0o600);
  });

  it('leaves alone an entry whose script exists, or that the user pointed elsewhere', async () => {
    const ok = home({ everything: { command: process.execPath, args: [entry, 'stdio'] } });
    expect(await repointSeededServer(ok, '/elsewhere/server-everything/dist/index.js')).toBeUndefined();
    const mine = home({ everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } });
    expect(await repointSeededServer(mine, entry)).toBeUndefined();
    expect(read(mine).mcpServers.everything).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] });
  });
});
