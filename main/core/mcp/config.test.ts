import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseMcpConfig, loadMcpConfig } from './config';
import { McpServerConfigSchema } from '../../../shared/protocol/contract/mcp-channel';
import { firstProblem } from '../../../shared/protocol/contract/gate';
import { importMcpServers } from './import';
import { needsApproval, toMcpTool } from '../../../shared/protocol/mcp';

const env = { TOKEN: 'abc', HOME: '/home/u' };

describe('settings/mcp.json', () => {
  it('reads stdio, http and sse entries and expands $ENV in env and headers', () => {
    const c = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          local: { command: 'node', args: ['s.js'], env: { KEY: '$TOKEN', P: '${HOME}/x' }, cwd: '/tmp' },
          remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
          old: { type: 'sse', url: 'https://example.com/sse' },
          off: { command: 'x', disabled: true },
        },
      }),
      'mcp.json',
      env,
    );
    expect(c.servers.local).toEqual({ transport: 'stdio', command: 'node', args: ['s.js'], env: { KEY: 'abc', P: '/home/u/x' }, cwd: '/tmp' });
    expect(c.servers.remote).toEqual({ transport: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer abc' } });
    expect(c.servers.old).toMatchObject({ transport: 'sse' });
    expect(c.servers.off).toBeUndefined();
    expect(c.errors).toEqual({});
  });

  it('reads a remote entry\'s OAuth client settings ($ENV expanded) as the mcp-host contract has them; a bad one names its pointer', () => {
    const c = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          signed: { type: 'http', url: 'https://example.com/mcp', oauth: { clientId: 'stepwise', clientSecret: '$TOKEN', scope: 'read write' } },
          wrong: { type: 'sse', url: 'https://example.com/sse', oauth: { clientid: 'x' } },
          empty: { type: 'http', url: 'https://example.com/mcp', oauth: { clientId: '' } },
        },
      }),
      'mcp.json',
      env,
    );
    expect(c.servers.signed).toEqual({ transport: 'http', url: 'https://example.com/mcp', headers: {}, oauth: { clientId: 'stepwise', clientSecret: 'abc', scope: 'read write' } });
    expect(firstProblem(McpServerConfigSchema, c.servers.signed)).toBeUndefined();
    expect(c.errors.wrong).toBe('mcp.json: /mcpServers/wrong/oauth/clientid is not an OAuth setting (use clientId, clientSecret, scope)');
    expect(c.errors.empty).toBe('mcp.json: /mcpServers/empty/oauth/clientId must be a non-empty string');
  });

  it('names the file and JSON pointer of a bad entry and keeps the others', () => {
    const c = parseMcpConfig(
      JSON.stringify({ mcpServers: { good: { command: 'a' }, bad: { command: 'a', args: 'x' }, nokey: { command: 'a', env: { K: '$MISSING_VAR' } }, t: { type: 'ws', url: 'x' } } }),
      'mcp.json',
      env,
    );
    expect(Object.keys(c.servers)).toEqual(['good']);
    expect(c.errors.bad).toBe('mcp.json: /mcpServers/bad/args must be an array of strings');
    expect(c.errors.nokey).toBe('mcp.json: /mcpServers/nokey/env/K refers to $MISSING_VAR, which is not set in the environment');
    expect(c.errors.t).toContain('/mcpServers/t/type: unknown "type": "ws"');
    expect(() => parseMcpConfig('{"mcpServers": [}', 'mcp.json')).toThrow(/^mcp.json: not valid JSON at line 1, column \d+: /);
    expect(() => parseMcpConfig('{\n  "mcpServers": {\n    "a": { "command": "x" }\n', 'mcp.json')).toThrow(/^mcp.json: not valid JSON at line 4, column 1: the text ends early/);
    expect(() => parseMcpConfig('{"mcpServers": {"a": x}}', 'mcp.json')).toThrow("mcp.json: not valid JSON at line 1, column 22: unexpected 'x'");
  });

  it('reads a bundled entry (a Stepwise extension) as the mcp-host contract has it, and names the pointer of a bad one', () => {
    const c = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          everything: { type: 'bundled', server: 'everything', timeoutMs: 5000 },
          caps: { type: 'Bundled', server: 'everything' },
          other: { type: 'bundled', server: 'filesystem' },
          none: { type: 'bundled' },
          slow: { type: 'bundled', server: 'everything', timeoutMs: -1 },
        },
      }),
      'mcp.json',
      env,
    );
    expect(c.servers).toEqual({ everything: { transport: 'bundled', server: 'everything', timeoutMs: 5000 }, caps: { transport: 'bundled', server: 'everything' } });
    expect(firstProblem(McpServerConfigSchema, c.servers.everything)).toBeUndefined();
    expect(c.transports).toEqual({ everything: 'bundled', caps: 'bundled', other: 'bundled', none: 'bundled', slow: 'bundled' });
    expect(c.errors).toEqual({
      other: 'mcp.json: /mcpServers/other/server must name a server bundled with Stepwise ("everything"), not "filesystem"',
      none: 'mcp.json: /mcpServers/none/server must name a server bundled with Stepwise ("everything"), not nothing',
      slow: 'mcp.json: /mcpServers/slow/timeoutMs must be a positive number of milliseconds',
    });
    expect(parseMcpConfig('{"mcpServers":{"t":{"type":"ws"}}}', 'mcp.json').errors.t).toBe('mcp.json: /mcpServers/t/type: unknown "type": "ws" (use "stdio", "http", "sse" or "bundled")');
  });

  it('property: any "server" value of a bundled entry is accepted only if it names a bundled server, never a crash', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant('everything'), fc.jsonValue()), fc.jsonValue(), (server, extra) => {
        const c = parseMcpConfig(JSON.stringify({ mcpServers: { b: { type: 'bundled', server, extra } } }), 'mcp.json', env);
        if (server === 'everything') expect(c.servers.b).toEqual({ transport: 'bundled', server: 'everything' });
        else expect(c.errors.b).toMatch(/^mcp\.json: \/mcpServers\/b\/server must name a server bundled with Stepwise \("everything"\), not /);
        if (c.servers.b) expect(firstProblem(McpServerConfigSchema, c.servers.b)).toBeUndefined();
      }),
    );
  });

  it('a missing file is an empty configuration', async () => {
    const c = await loadMcpConfig(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-')));
    expect(c.servers).toEqual({});
  });
});

describe('import from other clients', () => {
  function setup(rel: string, doc: unknown): { home: string; file: string } {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-imp-'));
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(doc));
    return { home: path.join(root, 'home'), file };
  }

  it('Claude Desktop and Cursor files add their mcpServers; existing names are kept', async () => {
    const { home, file } = setup('claude_desktop_config.json', { mcpServers: { a: { command: 'npx', args: ['-y', 'x'] } } });
    const r = await importMcpServers(home, file);
    expect(r).toMatchObject({ format: 'claude-desktop', added: ['a'] });
    const cur = setup('.cursor/mcp.json', { mcpServers: { a: { url: 'https://c' }, b: { url: 'https://d' } } });
    const r2 = await importMcpServers(home, cur.file);
    expect(r2).toMatchObject({ format: 'cursor', added: ['b'] });
    expect(r2.notes.join()).toContain('server "a" already exists');
    const c = await loadMcpConfig(home, {});
    expect(c.servers.a).toMatchObject({ transport: 'stdio', command: 'npx' });
    expect(c.servers.b).toMatchObject({ transport: 'http', url: 'https://d' });
  });

  it('VS Code files: servers, inputs and ${env:…} become $ENV references', async () => {
    const { home, file } = setup('proj/.vscode/mcp.json', {
      inputs: [{ type: 'promptString', id: 'api-key', description: 'API key', password: true }],
      servers: {
        gh: { type: 'http', url: 'https://api.example/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } },
        local: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/s.js'], env: { T: '${env:TOKEN}' } },
      },
    });
    const r = await importMcpServers(home, file);
    expect(r.format).toBe('vscode');
    expect(r.notes.join()).toContain('$API_KEY');
    const c = await loadMcpConfig(home, { API_KEY: 'k', TOKEN: 't' });
    expect(c.servers.gh).toMatchObject({ transport: 'http', headers: { Authorization: 'Bearer k' } });
    expect(c.servers.local).toMatchObject({ args: [path.join(path.dirname(path.dirname(file)), 's.js')], env: { T: 't' } });
  });

  it('VS Code files with comments and trailing commas are read (VS Code accepts them); a real error names line and column', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-imp-'));
    const file = path.join(root, 'proj', '.vscode', 'mcp.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [
        '// MCP servers for this project',
        '{',
        '  "servers": {',
        '    /* the local one */',
        '    "local": { "type": "stdio", "command": "node", "args": ["s.js",], },',
        '    "remote": { "type": "http", "url": "https://api.example/mcp" }, // trailing comma next',
        '  },',
        '}',
      ].join('\n'),
    );
    const home = path.join(root, 'home');
    const r = await importMcpServers(home, file);
    expect(r).toMatchObject({ format: 'vscode', added: ['local', 'remote'] });
    const c = await loadMcpConfig(home, {});
    expect(c.servers.local).toMatchObject({ transport: 'stdio', command: 'node', args: ['s.js'] });
    expect(c.servers.remote).toMatchObject({ transport: 'http', url: 'https://api.example/mcp' });

    fs.writeFileSync(file, '{\n  // a comment\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n');
    await expect(importMcpServers(home, file)).rejects.toThrow(`${file}: not valid JSON at line 5, column 5: expected ',' or '}' after a property value, found '"'`);
    fs.writeFileSync(file, '{ "servers": { "a": { "command": "x" }');
    await expect(importMcpServers(home, file)).rejects.toThrow(/line 1, column 39: the text ends early \(truncated\?\): expected ',' or '}' after a property value, found the end of the text$/);
  });
});

describe('approval and thread tools', () => {
  const info = { name: 'rm', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } };
  it('destructive tools need approval unless the thread allows them; read-only never', () => {
    const tool = toMcpTool('fs', info);
    expect(tool).toMatchObject({ type: 'mcp', name: 'rm', server: 'fs', toolName: 'rm', annotations: { destructiveHint: true } });
    expect(needsApproval(tool, {})).toBe(true);
    expect(needsApproval(tool, { settings: { allowDestructive: true } })).toBe(false);
    expect(needsApproval(toMcpTool('fs', { ...info, annotations: { readOnlyHint: true } }), {})).toBe(false);
    expect(needsApproval(toMcpTool('fs', { ...info, annotations: {} }), {})).toBe(false);
  });
});
