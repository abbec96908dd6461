/**
 * Servers bundled with Stepwise (`"type": "bundled"`) in the real mcp-host child process: two
 * connections in one process keep their own session state, get-env shows what the same server
 * would see over stdio (not the mcp-host's environment), and in the packaged app a stdio server
 * that would run the app's own executable as Node is refused with a diagnosis, unstarted.
 * (server-everything over stdio, HTTP and bundled: everything.test.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { McpService } from '../../../main/core/mcp/service';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import { mcpHostEntry } from '../../../main/core/process/entries';
import { EVERYTHING, harness, makeHome, startService, text, thread } from './harness';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const tmp = (prefix: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));

describe('bundled servers in the mcp-host', () => {
  it('two bundled servers in one mcp-host each answer with their own roots (a session id per connection)', async () => {
    const svc = startService(makeHome({ one: { type: 'bundled', server: 'everything' }, two: { type: 'bundled', server: 'everything' } }));
    const one = await harness(svc, 'one');
    const two = await harness(svc, 'two', 'run-2');
    cleanups.push(() => svc.close(), one.detach, two.detach);
    const [a, b] = [tmp('stepwise-one-'), tmp('stepwise-two-')];
    const r1 = await one.call('get-roots-list', {}, { thread: thread([a]) });
    const r2 = await two.call('get-roots-list', {}, { thread: thread([b]) });
    expect(text(r1.out)).toContain(pathToFileURL(a).href);
    expect(text(r2.out)).toContain(pathToFileURL(b).href);
    expect(text(r2.out)).not.toContain(pathToFileURL(a).href);
    // And each follows its own change of roots.
    const r3 = await one.call('get-roots-list', {}, { thread: thread([b]) });
    expect(text(r3.out)).toContain(pathToFileURL(b).href);
    expect(text(r3.out)).not.toContain(pathToFileURL(a).href);
  });

  it("get-env shows the environment the server would get over stdio, never the mcp-host's", async () => {
    const secret = 'sk-stepwise-test-secret-' + Math.random().toString(36).slice(2);
    process.env.STEPWISE_TEST_SECRET = secret; // the mcp-host child inherits it
    let svc: McpService;
    try {
      svc = startService(makeHome({ bundled: { type: 'bundled', server: 'everything' }, piped: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }));
      await svc.servers();
    } finally {
      delete process.env.STEPWISE_TEST_SECRET;
    }
    cleanups.push(() => svc.close());
    const envOf = async (server: string) => {
      const h = await harness(svc, server, `run-${server}`);
      cleanups.push(h.detach);
      const r = await h.call('get-env', {});
      expect(r.out.isError).toBe(false);
      return JSON.parse(text(r.out)) as Record<string, string>;
    };
    const bundled = await envOf('bundled');
    expect(JSON.stringify(bundled)).not.toContain(secret);
    expect(bundled).toEqual(await envOf('piped'));
    expect(bundled.PATH).toBe(process.env.PATH);
  });

  it('in the packaged app, a stdio server running the app executable with ELECTRON_RUN_AS_NODE is refused unstarted, naming the fix', async () => {
    const dir = tmp('stepwise-app-');
    const marker = path.join(dir, 'started');
    const script = path.join(dir, 'server.mjs');
    fs.writeFileSync(script, `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, 'started');\n`);
    // The app's executable under another name (a link, as /usr/bin/stepwise is on Linux).
    const link = path.join(dir, 'stepwise');
    fs.symlinkSync(process.execPath, link);
    const asNode = { ELECTRON_RUN_AS_NODE: '1' };
    const home = makeHome({
      app: { command: process.execPath, args: [script, 'stdio'], env: asNode },
      linked: { command: link, args: [script], env: asNode },
      node: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      everything: { type: 'bundled', server: 'everything' },
    });
    // What main/electron/index.ts passes when app.isPackaged: here "the app" is this Node binary.
    const svc = new McpService({ home, spawner: new NodeSpawner({ stdout: 'pipe' }), entry: mcpHostEntry(), backoffMs: { initial: 50, max: 200 }, appExecutable: process.execPath });
    cleanups.push(() => svc.close());
    for (const name of ['app', 'linked']) {
      const r = await svc.test(name);
      expect(r.ok).toBe(false);
      expect(r.message).toBe(
        `MCP server "${name}": its command is this app's own executable with ELECTRON_RUN_AS_NODE, but this app cannot run scripts as Node (it would start a second copy of itself); install Node and use \`node\` as the command in settings/mcp.json.`,
      );
      expect((await svc.servers()).find((s) => s.name === name)).toMatchObject({ status: 'error', error: r.message });
      expect((await svc.serverLog(name)).messages).toEqual([]);
    }
    const h = await harness(svc, 'everything');
    cleanups.push(h.detach);
    const call = await svc.callTool('app', 'anything', {});
    expect(call.output.isError).toBe(true);
    expect(text(call.output)).toContain('this app cannot run scripts as Node');
    expect(fs.existsSync(marker)).toBe(false);
    // Servers run with Node, and the bundled one, are unaffected.
    expect((await svc.test('node')).ok).toBe(true);
    expect(text((await h.call('echo', { message: 'still here' })).out)).toContain('still here');
  });
});
