/**
 * Every `stepwise mcp` client answers a server's `roots/list` with the `--root` folders, over
 * stdio, Streamable HTTP and SSE, also when the server asks as soon as it is initialized (as
 * @modelcontextprotocol/server-filesystem does). Before, over Streamable HTTP that first request
 * was lost (the client opened its GET stream only after the server had sent it, and the server
 * timed out: "MCP error -32001: Request timed out"), and only `mcp call` took `--root`. Real
 * servers: tests/support/mcp-servers/roots.mjs (the SDK's server classes) on each transport,
 * and @modelcontextprotocol/server-filesystem over stdio; the real CLI through bin/stepwise.mjs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILESYSTEM, makeHome } from './harness';

const ROOTS = path.resolve('tests/support/mcp-servers/roots.mjs');
const servers: ChildProcess[] = [];
const urls: Record<'http' | 'sse', string> = { http: '', sse: '' };


beforeAll(async () => {
  for (const mode of ['http', 'sse'] as const) {
    const child = spawn(process.execPath, [ROOTS, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    servers.push(child);
    const rl = readline.createInterface({ input: child.stdout! });
    const first = await rl[Symbol.asyncIterator]().next();
    urls[mode] = (JSON.parse(first.value as string) as { url: string }).url;
  }
}, 60_000);
afterAll(() => {
  for (const s of servers) s.kill();
});

const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'stepwise-roots-'));
const offered = path.join(dir, 'offered');
const started = path.join(dir, 'started');
fs.mkdirSync(offered);
fs.mkdirSync(started);
const ROOT = [{ uri: pathToFileURL(offered).href, name: 'offered' }];

function cli(home: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/stepwise.mjs', 'mcp', ...args, '--home', home], { encoding: 'utf8', timeout: 90_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const homeOf = () =>
  makeHome({
    stdio: { command: process.execPath, args: [ROOTS] },
    http: { type: 'http', url: urls.http },
    sse: { type: 'sse', url: urls.sse },
    fs: { command: process.execPath, args: [FILESYSTEM, started] },
  });

describe('roots/list from the CLI', () => {
  it('answered with --root on stdio, Streamable HTTP and SSE: asked at initialization and from a tool', { timeout: 240_000 }, () => {
    const home = homeOf();
    for (const server of ['stdio', 'http', 'sse']) {
      const atStart = cli(home, 'call', server, 'roots-at-start', '--root', offered);
      expect({ server, ...atStart }).toEqual({ server, code: 0, out: `${JSON.stringify(ROOT)}\n`, err: '' });
      const fromTool = cli(home, 'call', server, 'list-roots', '--root', offered);
      expect({ server, ...fromTool }).toEqual({ server, code: 0, out: `${JSON.stringify(ROOT)}\n`, err: '' });
    }
  });

  it('mcp test, tools and list offer --root too (what the server got at initialization)', { timeout: 240_000 }, async () => {
    const home = homeOf();
    const answered = async (mode: 'http' | 'sse') => (await (await fetch(new URL('/answered', urls[mode]))).json()) as unknown[];
    for (const mode of ['http', 'sse'] as const) {
      for (const args of [['test', mode], ['tools', mode]]) {
        const before = (await answered(mode)).length;
        const r = cli(home, ...args, '--root', offered);
        expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 0, err: '' });
        await expect.poll(async () => (await answered(mode)).slice(before), { timeout: 10_000 }).toEqual([ROOT]);
      }
    }
    const before = (await answered('http')).length;
    expect(cli(home, 'list', '--root', offered).code).toBe(0);
    await expect.poll(async () => (await answered('http')).slice(before), { timeout: 10_000 }).toEqual([ROOT]);
  });

  it('@modelcontextprotocol/server-filesystem over stdio takes the --root folder as its allowed directory', { timeout: 120_000 }, () => {
    const home = homeOf();
    expect(cli(home, 'call', 'fs', 'list_allowed_directories', '--root', offered).out).toMatch(new RegExp(`^Allowed directories:\\n${offered}\\n`));
    expect(cli(home, 'call', 'fs', 'list_allowed_directories').out).toMatch(new RegExp(`^Allowed directories:\\n${started}\\n`));
  });
});
