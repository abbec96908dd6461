/** `stepwise mcp` through the real bin: output and exit codes 0 ok, 1 tool error, 2 bad input, 3 connection failure. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EVERYTHING, FAULTY, makeHome } from './harness';

const home = makeHome({
  everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
  faulty: { command: process.execPath, args: [FAULTY] },
  missing: { command: 'stepwise-no-such-command-xyz' },
});

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/stepwise.mjs', 'mcp', ...args, '--home', home], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('stepwise mcp', () => {
  it('list, tools and call', { timeout: 90_000 }, () => {
    expect(cli('list').out).toMatch(/everything\tstdio\tdisconnected/);
    const tools = cli('tools', 'everything');
    expect(tools.code).toBe(0);
    expect(tools.out).toMatch(/^get-sum\t/m);
    const sum = cli('call', 'everything', 'get-sum', '--args', '{"a":1,"b":2}');
    expect(sum).toMatchObject({ code: 0, out: 'The sum of 1 and 2 is 3.\n' });
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
});
