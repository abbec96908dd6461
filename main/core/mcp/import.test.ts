// Each client's MCP config file, as that client writes and expands it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { importMcpServers, readForeignMcpFile } from './import';
import { loadMcpConfig, expandEnvRefs } from './config';
import { expandServer } from './import-expand';
import { parseEnvFile } from './env-file';

function setup(rel: string, doc: unknown, extra: Record<string, string> = {}): { home: string; file: string; root: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-mcpimp-'));
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  for (const [k, v] of Object.entries(extra)) fs.writeFileSync(path.join(root, k), v);
  return { home: path.join(root, 'home'), file, root };
}

describe('Cursor .cursor/mcp.json', () => {
  it('${env:NAME} reaches the server as the variable, envFile variables are loaded (env wins), ${workspaceFolder} is the project', async () => {
    const { home, file, root } = setup('proj/.cursor/mcp.json', {
      mcpServers: {
        api: { url: 'https://api.example/mcp', headers: { Authorization: 'Bearer ${env:SECRET}' } },
        local: { command: 'node', args: ['${workspaceFolder}${/}server.js', '--home=${userHome}'], env: { MODE: 'dev', PRICE: '5$' }, envFile: '${workspaceFolder}/.env' },
      },
    }, { 'proj/.env': '# keys\nexport TOKEN="a b"\nMODE=prod\nRAW=\'x$y\'\n' });
    const r = await importMcpServers(home, file, false, {});
    expect(r.format).toBe('cursor');
    const c = await loadMcpConfig(home, { SECRET: 's3cret' });
    expect(c.errors).toEqual({});
    expect(c.servers.api).toMatchObject({ headers: { Authorization: 'Bearer s3cret' } });
    expect(c.servers.local).toMatchObject({
      args: [path.join(root, 'proj', 'server.js'), `--home=${os.homedir()}`],
      env: { TOKEN: 'a b', MODE: 'dev', RAW: 'x$y', PRICE: '5$' },
    });
    // The secret stays in the environment, not in Stepwise's settings file.
    expect(fs.readFileSync(path.join(home, 'settings', 'mcp.json'), 'utf8')).toContain('${SECRET}');
    expect(r.notes.join('\n')).toContain('envFile .env are copied');
  });
});

describe('Claude Code .mcp.json', () => {
  it('${VAR} and ${VAR:-default} expand in command, args, env, url and headers; $VAR does not; named claude-code', async () => {
    const { home, file } = setup('proj/.mcp.json', {
      mcpServers: {
        db: { command: '${BIN:-npx}', args: ['-y', 'db-server', '--url=${DB_URL}', '$NOT_EXPANDED'], env: { KEY: '${API_KEY}', LEVEL: '${LEVEL:-info}' } },
        web: { type: 'http', url: '${BASE:-https://mcp.example}/mcp', headers: { 'X-Key': '${API_KEY}' } },
      },
    });
    const r = await importMcpServers(home, file, false, { DB_URL: 'postgres://h/db' });
    expect(r.format).toBe('claude-code');
    const c = await loadMcpConfig(home, { API_KEY: 'k1' });
    expect(c.errors).toEqual({});
    expect(c.servers.db).toMatchObject({ command: 'npx', args: ['-y', 'db-server', '--url=postgres://h/db', '$NOT_EXPANDED'], env: { KEY: 'k1', LEVEL: 'info' } });
    expect(c.servers.web).toMatchObject({ transport: 'http', url: 'https://mcp.example/mcp', headers: { 'X-Key': 'k1' } });
    const later = await loadMcpConfig(home, { API_KEY: 'k1', LEVEL: 'debug', BASE: 'https://other' });
    expect(later.servers.db).toMatchObject({ env: { LEVEL: 'debug' } });
    expect(later.servers.web).toMatchObject({ url: 'https://other/mcp' });
  });

  it('an unset ${VAR} without default in args stays as written and is reported', async () => {
    const { home, file } = setup('.mcp.json', { mcpServers: { a: { command: 'x', args: ['${MISSING}'] } } });
    const r = await importMcpServers(home, file, false, {});
    expect(r.notes.join()).toContain('${MISSING} is not set');
    expect((await loadMcpConfig(home, {})).servers.a).toMatchObject({ args: ['${MISSING}'] });
  });

  it('Claude Desktop expands nothing: a $ in env reaches the server as written', async () => {
    const { home, file } = setup('claude_desktop_config.json', { mcpServers: { a: { command: 'x', env: { P: '${HOME}-$USER' } } } });
    const r = await importMcpServers(home, file, false, {});
    expect(r.format).toBe('claude-desktop');
    expect((await loadMcpConfig(home, {})).servers.a).toMatchObject({ env: { P: '${HOME}-$USER' } });
  });
});

describe('VS Code .vscode/mcp.json', () => {
  it('declared inputs become environment references (promptString default kept); an undeclared input skips its server', async () => {
    const { home, file } = setup('proj/.vscode/mcp.json', {
      inputs: [
        { type: 'promptString', id: 'api-key', description: 'API key', password: true },
        { type: 'promptString', id: 'region', description: 'Region', default: 'eu' },
      ],
      servers: {
        gh: { type: 'http', url: 'https://${input:region}.api.example/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } },
        bad: { type: 'stdio', command: 'node', args: ['${input:nope}'] },
      },
    });
    const r = await importMcpServers(home, file, false, {});
    expect(r).toMatchObject({ format: 'vscode', added: ['gh'] });
    expect(r.notes.join('\n')).toMatch(/input "api-key" \(API key; a secret\) is read from \$API_KEY/);
    expect(r.notes.join('\n')).toMatch(/server "bad" uses \$\{input:nope\}, which the file's "inputs" does not declare/);
    const c = await loadMcpConfig(home, { API_KEY: 'k' });
    expect(c.servers.gh).toMatchObject({ url: 'https://eu.api.example/mcp', headers: { Authorization: 'Bearer k' } });
  });
});

describe('parsers never throw', () => {
  it('expandServer on any entry of any format returns an entry or a skip', () => {
    fc.assert(
      fc.property(fc.constantFrom('claude-desktop', 'claude-code', 'cursor', 'vscode' as const), fc.dictionary(fc.string(), fc.jsonValue()), fc.dictionary(fc.string(), fc.string()), (format, raw, env) => {
        const r = expandServer('s', raw, { format, folder: '/p', env, inputs: new Map([['a', { id: 'a' }]]) });
        expect('entry' in r || 'skip' in r).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('what Claude Code would send for a value is what Stepwise expands from the imported reference', () => {
    const word = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,5}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string().filter((s) => !s.includes('${')), word.map((w) => `\${${w}}`), fc.tuple(word, fc.string().filter((s) => !/[}$]/.test(s))).map(([w, d]) => `\${${w}:-${d}}`))), fc.dictionary(word, fc.string()), (parts, env) => {
        const value = parts.join('');
        // Claude Code: `${name}` or `${name:-default}`, value when set, else default, else as written.
        const claude = value.replace(/\$\{([^}]+)\}/g, (m, body: string) => {
          const [n, d] = body.includes(':-') ? [body.slice(0, body.indexOf(':-')), body.slice(body.indexOf(':-') + 2)] : [body, undefined];
          return env[n] ?? d ?? m;
        });
        const r = expandServer('s', { env: { V: value } }, { format: 'claude-code', folder: '/p', env: {}, inputs: new Map() });
        if (!('entry' in r)) throw new Error('skipped');
        let ours: string | undefined;
        try {
          ours = expandEnvRefs(r.entry.env!.V, env, 'v');
        } catch {
          ours = undefined;
        }
        // Unset without default: Claude Code sends the text; Stepwise refuses the server naming the variable.
        if (ours === undefined) expect(claude).toMatch(/\$\{/);
        else expect(ours).toBe(claude);
      }),
      { numRuns: 400 },
    );
  });

  it('parseEnvFile never throws', () => {
    fc.assert(fc.property(fc.string(), (t) => { parseEnvFile(t); }), { numRuns: 300 });
    expect(parseEnvFile('A=1\n# c\nexport B = "x\\ny" # note\nC=\'$d\'\nnot a line\nD=e # tail')).toEqual({ A: '1', B: 'x\ny', C: '$d', D: 'e' });
  });

  it('a file with a broken entry reports it and imports the rest', async () => {
    const { file } = setup('.mcp.json', { mcpServers: { a: 3, b: { command: 'x' } } });
    const r = await readForeignMcpFile(file, {});
    expect(Object.keys(r.servers)).toEqual(['b']);
    expect(r.notes).toContain('server "a" is not an object; not imported');
  });
});
