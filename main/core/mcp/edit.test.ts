import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateSeededServer, saveMcpServer, SEEDED_EVERYTHING } from './edit';
import { parseMcpConfig } from './config';

function home(servers: Record<string, unknown>): string {
  const h = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-edit-'));
  fs.mkdirSync(path.join(h, 'settings'));
  fs.writeFileSync(path.join(h, 'settings', 'mcp.json'), JSON.stringify({ mcpServers: servers, extra: 1 }));
  return h;
}
const read = (h: string) => JSON.parse(fs.readFileSync(path.join(h, 'settings', 'mcp.json'), 'utf8'));
const entry = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const mcpJson = (h: string) => path.join(h, 'settings', 'mcp.json');

describe('migrateSeededServer', () => {
  it("the desktop app's old seeded entry (the app's executable run as Node) becomes the bundled server, keeping the user's other keys and servers", async () => {
    const app = '/Applications/Stepwise.app/Contents/MacOS/Stepwise';
    const h = home({ everything: { command: app, args: [entry, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' }, timeoutMs: 90000 }, other: { command: 'x' } });
    expect(await migrateSeededServer(h)).toBe(
      `The "everything" MCP server in ${mcpJson(h)} ran this app's executable as Node, which this version cannot do; it is now the everything server bundled with Stepwise.`,
    );
    expect(read(h)).toEqual({ mcpServers: { everything: { type: 'bundled', server: 'everything', timeoutMs: 90000 }, other: { command: 'x' } }, extra: 1 });
    expect(fs.statSync(mcpJson(h)).mode & 0o777).toBe(0o600);
    // The result is a valid entry, and nothing in it asks for ELECTRON_RUN_AS_NODE.
    expect(parseMcpConfig(fs.readFileSync(mcpJson(h), 'utf8'), 'mcp.json').servers.everything).toEqual({ transport: 'bundled', server: 'everything', timeoutMs: 90000 });
    expect(fs.readFileSync(mcpJson(h), 'utf8')).not.toContain('ELECTRON_RUN_AS_NODE');
    // Once migrated, there is nothing more to do.
    expect(await migrateSeededServer(h)).toBeUndefined();
  });

  it('an AppImage entry whose executable and script are both gone, disabled by the user, stays disabled', async () => {
    const gone = '/tmp/.mount_StepwXYZ/resources/app.asar/node_modules/@modelcontextprotocol/server-everything/dist/index.js';
    const h = home({ everything: { command: '/tmp/.mount_StepwXYZ/stepwise', args: [gone, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' }, disabled: true } });
    expect(await migrateSeededServer(h)).toMatch(/ran this app's executable as Node/);
    expect(read(h).mcpServers.everything).toEqual({ ...SEEDED_EVERYTHING, disabled: true });
  });

  it('a web-host entry run with Node whose script is gone (the checkout moved) becomes the bundled server', async () => {
    const gone = '/moved/checkout/node_modules/@modelcontextprotocol/server-everything/dist/index.js';
    const h = home({ everything: { command: '/no/such/node', args: [gone, 'stdio'], env: { X: '1' } } });
    expect(await migrateSeededServer(h)).toBe(`The "everything" MCP server in ${mcpJson(h)} pointed to ${gone}, which is gone; it is now the everything server bundled with Stepwise.`);
    expect(read(h).mcpServers.everything).toEqual(SEEDED_EVERYTHING);
  });

  it("a relative script counts from the entry's cwd", async () => {
    const srv = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-srv-'));
    const rel = 'vendor/server-everything/dist/index.js';
    fs.mkdirSync(path.join(srv, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(srv, rel), '');
    const mine = { command: 'node', args: [rel, 'stdio'], cwd: srv };
    const h = home({ everything: mine });
    expect(await migrateSeededServer(h)).toBeUndefined();
    expect(read(h).mcpServers.everything).toEqual(mine);
  });

  it('leaves alone an entry run with Node whose script exists, one the user pointed elsewhere, other names, and a broken file', async () => {
    const ok = home({ everything: { command: process.execPath, args: [entry, 'stdio'] } });
    expect(await migrateSeededServer(ok)).toBeUndefined();
    expect(read(ok).mcpServers.everything).toEqual({ command: process.execPath, args: [entry, 'stdio'] });
    const mine = home({ everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } });
    expect(await migrateSeededServer(mine)).toBeUndefined();
    expect(read(mine).mcpServers.everything).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] });
    const renamed = { command: '/Applications/Stepwise.app/Contents/MacOS/Stepwise', args: [entry, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } };
    const other = home({ demo: renamed, everything: { type: 'http', url: 'http://127.0.0.1:1/mcp' } });
    expect(await migrateSeededServer(other)).toBeUndefined();
    expect(read(other).mcpServers).toEqual({ demo: renamed, everything: { type: 'http', url: 'http://127.0.0.1:1/mcp' } });
    const broken = home({});
    fs.writeFileSync(mcpJson(broken), '{ "mcpServers": ');
    expect(await migrateSeededServer(broken)).toBeUndefined();
    expect(fs.readFileSync(mcpJson(broken), 'utf8')).toBe('{ "mcpServers": ');
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
