/**
 * Settings answered as saved are all in their files: two windows (or a window and a command)
 * saving providers or MCP servers at the same moment each read the file, changed their own
 * entry and wrote it back, and the second write dropped the first one's entry, though both
 * were answered as saved (issue 29: nothing acknowledged is lost). Saves of one file now
 * take turns.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpService } from '../../../main/core/mcp/service';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import { mcpHostEntry } from '../../../main/core/process/entries';
import { hostCores, makeHome } from '../../support/host-harness';

const start = hostCores();

describe('concurrent settings saves', () => {
  it('providers.json keeps every provider saved at once, and each removal', async () => {
    const home = makeHome();
    const conn = (await start({ home })).connect(() => {});
    const ids = Array.from({ length: 8 }, (_, i) => `local-${i}`);
    await Promise.all(ids.map((id, i) => conn.request('settings.saveProvider', { id, api: 'openai-completions', baseUrl: `http://127.0.0.1:${9000 + i}/v1` })));
    const saved = JSON.parse(fs.readFileSync(path.join(home, 'settings', 'providers.json'), 'utf8')) as { providers: { id: string }[] };
    expect(saved.providers.map((p) => p.id).sort()).toEqual(ids);
    await Promise.all(ids.slice(0, 4).map((id) => conn.request('settings.removeProvider', { id })));
    const left = JSON.parse(fs.readFileSync(path.join(home, 'settings', 'providers.json'), 'utf8')) as { providers: { id: string }[] };
    expect(left.providers.map((p) => p.id).sort()).toEqual(ids.slice(4));
  });

  it('mcp.json keeps every server saved at once, and each removal', async () => {
    const home = makeHome();
    const mcp = new McpService({ home, spawner: new NodeSpawner({ stdout: 'pipe' }), entry: mcpHostEntry(), connectInBackground: true });
    onTestFinished(() => mcp.close());
    const conn = (await start({ home, mcp, mcpRelay: mcp })).connect(() => {});
    const names = Array.from({ length: 8 }, (_, i) => `srv-${i}`);
    await Promise.all(names.map((name, i) => conn.request('mcp.saveServer', { name, entry: { type: 'http', url: `http://127.0.0.1:${9100 + i}/mcp` } })));
    const file = path.join(home, 'settings', 'mcp.json');
    expect(Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: object }).mcpServers).sort()).toEqual(names);
    await Promise.all(names.slice(0, 4).map((name) => conn.request('mcp.removeServer', { name })));
    expect(Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: object }).mcpServers).sort()).toEqual(names.slice(4));
  });
});
