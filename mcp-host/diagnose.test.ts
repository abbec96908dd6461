import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseBeforeConnect } from './diagnose';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-diag-')));
const app = path.join(dir, 'Stepwise');
fs.writeFileSync(app, '', { mode: 0o755 });
const other = path.join(dir, 'node');
fs.writeFileSync(other, '', { mode: 0o755 });
const packaged = { STEPWISE_APP_EXECUTABLE: app, PATH: dir };
const stdio = (command: string, env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' }, cwd?: string) => ({ transport: 'stdio' as const, command, args: ['s.js'], env, ...(cwd ? { cwd } : {}) });

describe('diagnoseBeforeConnect', () => {
  it("refuses the packaged app's own executable run as Node, however the command names it", () => {
    for (const command of [app, 'Stepwise', './Stepwise']) {
      const d = diagnoseBeforeConnect('x', stdio(command, undefined, dir), packaged);
      expect(d?.kind, command).toBe('app_not_node');
      expect(d?.message).toMatch(/^MCP server "x": .*this app cannot run scripts as Node.*install Node and use `node` as the command in settings\/mcp\.json\.$/);
      expect(d?.message).not.toContain(dir); // no absolute path in what a client sees
    }
  });

  it('lets everything else through: another command, no ELECTRON_RUN_AS_NODE, an unpackaged app, a remote or bundled server', () => {
    expect(diagnoseBeforeConnect('x', stdio(other), packaged)).toBeUndefined();
    expect(diagnoseBeforeConnect('x', stdio('node'), packaged)).toBeUndefined();
    expect(diagnoseBeforeConnect('x', stdio('no-such-command'), packaged)).toBeUndefined();
    expect(diagnoseBeforeConnect('x', stdio(app, {}), packaged)).toBeUndefined();
    expect(diagnoseBeforeConnect('x', stdio(app), { PATH: dir })).toBeUndefined();
    expect(diagnoseBeforeConnect('x', { transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: {} }, packaged)).toBeUndefined();
    expect(diagnoseBeforeConnect('x', { transport: 'bundled', server: 'everything' }, packaged)).toBeUndefined();
  });
});
