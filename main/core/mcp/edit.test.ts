import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repointSeededServer, saveMcpServer } from './edit';

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
    const line = await repointSeededServer(h, entry, { execPath: process.execPath });
    expect(line).toBe(`The "everything" MCP server in ${path.join(h, 'settings', 'mcp.json')} pointed to ${gone}, which is gone; it now runs ${entry} with ${process.execPath}.`);
    expect(read(h)).toEqual({ mcpServers: { everything: { command: process.execPath, args: [entry, 'stdio'], env: { X: '1' } }, other: { command: 'x' } }, extra: 1 });
    expect(fs.statSync(path.join(h, 'settings', 'mcp.json')).mode & 0o777).toBe(0o600);
  });

  it('keeps a command found on PATH; in the desktop app an absolute command that is gone becomes the app run as Node', async () => {
    const gone = '/moved/node_modules/@modelcontextprotocol/server-everything/dist/index.js';
    const onPath = home({ everything: { command: 'node', args: [gone, 'stdio'] } });
    expect(await repointSeededServer(onPath, entry)).toMatch(/it now runs .*index\.js\.$/);
    expect(read(onPath).mcpServers.everything).toEqual({ command: 'node', args: [entry, 'stdio'] });
    const app = home({ everything: { command: '/Applications/Old.app/Contents/MacOS/Stepwise', args: [gone, 'stdio'], env: { A: 'b' } } });
    await repointSeededServer(app, entry, { execPath: '/usr/bin/true', electron: true });
    expect(read(app).mcpServers.everything).toEqual({ command: '/usr/bin/true', args: [entry, 'stdio'], env: { A: 'b', ELECTRON_RUN_AS_NODE: '1' } });
  });

  it("a relative script counts from the entry's cwd", async () => {
    const srv = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-srv-'));
    const rel = 'vendor/server-everything/dist/index.js';
    fs.mkdirSync(path.join(srv, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(srv, rel), '');
    const mine = { command: 'node', args: [rel, 'stdio'], cwd: srv };
    const h = home({ everything: mine });
    expect(await repointSeededServer(h, entry)).toBeUndefined();
    expect(read(h).mcpServers.everything).toEqual(mine);
  });

  it('leaves alone an entry whose script exists, or that the user pointed elsewhere', async () => {
    const ok = home({ everything: { command: process.execPath, args: [entry, 'stdio'] } });
    expect(await repointSeededServer(ok, '/elsewhere/server-everything/dist/index.js')).toBeUndefined();
    const mine = home({ everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } });
    expect(await repointSeededServer(mine, entry)).toBeUndefined();
    expect(read(mine).mcpServers.everything).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] });
  });
});

describe('saveMcpServer on a broken mcp.json', () => {
  it('is refused naming the line and column, and the file is left as it was', async () => {
    const h = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-edit-'));
    fs.mkdirSync(path.join(h, 'settings'));
    const file = path.join(h, 'settings', 'mcp.json');
    const text = '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n';
    fs.writeFileSync(file, text);
    await expect(saveMcpServer(h, 'b', { command: 'y' })).rejects.toThrow(
      `${file} cannot be updated: not valid JSON at line 3, column 28: expected a double-quoted property name, found '}'. Fix the file first (or delete it to start over); nothing was changed.`,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });
});
