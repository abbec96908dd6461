/** `stepwise mcp` through the real bin: output and exit codes 0 ok, 1 tool error, 2 bad input, 3 connection failure. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVERYTHING, FAULTY, makeHome } from './harness';

const home = makeHome({
  everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
  faulty: { command: process.execPath, args: [FAULTY] },
  missing: { command: 'stepwise-no-such-command-xyz' },
});

function cli(...args: string[]) {
  return cliIn(home, ...args);
}

function cliIn(home: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/stepwise.mjs', 'mcp', ...args, '--home', home], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('stepwise mcp', () => {
  it('list, tools and call', { timeout: 90_000 }, () => {
    expect(cli('list').out).toMatch(/^everything\tstdio\tconnected$/m);
    const tools = cli('tools', 'everything');
    expect(tools.code).toBe(0);
    expect(tools.out).toMatch(/^get-sum\t/m);
    const sum = cli('call', 'everything', 'get-sum', '--args', '{"a":1,"b":2}');
    expect(sum).toMatchObject({ code: 0, out: 'The sum of 1 and 2 is 3.\n' });
  });

  it('list shows each server\'s real state: connected, failed with the reason, still connecting after --timeout', { timeout: 90_000 }, () => {
    const states = makeHome({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      missing: { command: 'stepwise-no-such-command-xyz' },
      // A process that never answers the handshake: still connecting when the probe's time is up.
      silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
    });
    const list = cliIn(states, 'list', '--timeout', '3000');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^everything\tstdio\tconnected$/m);
    expect(list.out).toMatch(/^missing\tstdio\terror\t.*command not found/m);
    expect(list.out).toMatch(/^silent\tstdio\tconnecting$/m);
    const json = JSON.parse(cliIn(states, 'list', '--json', '--timeout', '3000').out) as { name: string; status: string; error?: string }[];
    expect(json.find((s) => s.name === 'missing')).toMatchObject({ status: 'error', error: expect.stringContaining('stepwise-no-such-command-xyz') });
    expect(cliIn(states, 'list', '--timeout', 'soon')).toMatchObject({ code: 2, err: expect.stringContaining('--timeout must be a whole number') });
  });

  it('exit 1 for a tool error, 2 for bad input, 3 for a connection failure', { timeout: 90_000 }, () => {
    const crash = cli('call', 'faulty', 'crash');
    expect(crash.code).toBe(1);
    expect(crash.out).toContain('closed the connection during the call');
    expect(cli('call', 'everything', 'get-sum', '--args', '{nope').code).toBe(2);
    expect(cli('call', 'nosuch', 'x').code).toBe(2);
    const missing = cli('call', 'missing', 'x');
    expect(missing.code).toBe(3);
    expect(missing.err).toContain('command not found');
  });

  it('exit 2, not 3, when settings/mcp.json itself is broken: malformed JSON, a bad mcpServers, a broken entry', { timeout: 90_000 }, () => {
    const broken = makeHome({});
    const file = path.join(broken, 'settings', 'mcp.json');
    fs.writeFileSync(file, '{"mcpServers": {');
    for (const args of [['list'], ['tools', 'everything'], ['test', 'everything'], ['call', 'everything', 'get-sum']]) {
      const r = cliIn(broken, ...args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.err).toContain(`${file}: not valid JSON`);
    }
    fs.writeFileSync(file, '{"mcpServers": []}');
    expect(cliIn(broken, 'list')).toMatchObject({ code: 2, err: expect.stringContaining('/mcpServers must be an object') });

    // A broken entry: listed with its error (the others too), exit 2; using it is bad input as well.
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { bad: { command: 'x', args: 'not-an-array' }, ok: { command: 'x' } } }));
    const list = cliIn(broken, 'list');
    expect(list.code).toBe(2);
    expect(list.out).toMatch(/^bad\tstdio\terror\t.*\/mcpServers\/bad\/args must be an array of strings$/m);
    expect(list.out).toMatch(/^ok\tstdio\t/m);
    expect(list.err).toContain('the entry "bad" is broken');
    expect(cliIn(broken, 'test', 'bad')).toMatchObject({ code: 2, err: expect.stringContaining('/mcpServers/bad/args must be an array of strings') });
  });

  it('import reads a VS Code file with comments and trailing commas', () => {
    const target = makeHome({});
    const vscode = path.join(target, 'proj', '.vscode', 'mcp.json');
    fs.mkdirSync(path.dirname(vscode), { recursive: true });
    fs.writeFileSync(vscode, '{\n  // servers\n  "servers": {\n    "local": { "command": "node", "args": ["s.js",], },\n  },\n}\n');
    const r = cliIn(target, 'import', vscode);
    expect(r).toMatchObject({ code: 0, out: 'Imported 1 server from vscode: local\n' });
    fs.writeFileSync(vscode, '{ "servers": { "a": {} } "x" }');
    expect(cliIn(target, 'import', vscode)).toMatchObject({ code: 2, err: expect.stringContaining(`not valid JSON at line 1, column 26: expected ',' or '}' after a property value, found '"'`) });
  });

  it('answers a server\'s roots/list with the --root folders (stdio and bundled), and with none without --root', { timeout: 90_000 }, () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-cli-roots-')));
    const both = makeHome({ stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'] }, bundled: { type: 'bundled', server: 'everything' } });
    for (const server of ['stdio', 'bundled']) {
      const r = cliIn(both, 'call', server, 'get-roots-list', '--root', dir, '--timeout', '20000');
      expect({ server, code: r.code }).toEqual({ server, code: 0 });
      expect(r.out).toContain(pathToFileURL(dir).href);
    }
    const none = cliIn(both, 'call', 'stdio', 'get-roots-list', '--timeout', '20000');
    expect(none.code).toBe(0);
    expect(none.out).toContain('no roots are currently configured');
  });
});
