/**
 * `stepwise mcp resources|templates|read|prompts|prompt` through the real bin against
 * server-everything over stdio: output and exit codes (0 ok, 1 the server's error, 2 bad
 * input, 3 connection failure).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVERYTHING, makeHome } from './harness';

const home = makeHome({
  everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
  paged: { command: process.execPath, args: [path.resolve('tests/support/mcp-servers/paged.mjs')] },
  missing: { command: 'stepwise-no-such-command-xyz' },
});

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/stepwise.mjs', 'mcp', ...args, '--home', home], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('stepwise mcp: resources and prompts', () => {
  it('resources (every page), templates, read a text resource and a template filled from --vars', { timeout: 240_000 }, () => {
    const list = cli('resources', 'everything');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^demo:\/\/resource\/static\/document\/instructions\.md\tinstructions\.md\ttext\/markdown$/m);
    const paged = cli('resources', 'paged', '--json');
    expect(paged.code).toBe(0);
    expect((JSON.parse(paged.out) as { name: string }[]).map((r) => r.name)).toEqual(Array.from({ length: 25 }, (_, i) => `r${i}`));
    const templates = cli('templates', 'everything');
    expect(templates).toMatchObject({ code: 0, out: expect.stringMatching(/^demo:\/\/resource\/dynamic\/text\/\{resourceId\}\tDynamic Text Resource$/m) });
    expect(cli('read', 'everything', 'demo://resource/dynamic/text/{resourceId}', '--vars', '{"resourceId":"4"}')).toMatchObject({ code: 0, out: expect.stringMatching(/^Resource 4: This is a plaintext resource/) });
    expect(cli('read', 'everything', 'demo://resource/dynamic/blob/5')).toMatchObject({ code: 0, out: expect.stringMatching(/^\[blob text\/plain, \d+ bytes: demo:\/\/resource\/dynamic\/blob\/5\]$/m) });
  });

  it('prompts and prompt with --args', { timeout: 240_000 }, () => {
    const list = cli('prompts', 'everything');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^args-prompt\(city\*, state\)\tA prompt with two arguments/m);
    expect(cli('prompt', 'everything', 'args-prompt', '--args', '{"city":"Oslo"}')).toMatchObject({ code: 0, out: "[user] What's weather in Oslo?\n" });
    const json = cli('prompt', 'everything', 'completable-prompt', '--args', '{"department":"Sales","name":"Eve"}', '--json');
    expect(JSON.parse(json.out)).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Please promote Eve to the head of the Sales team.' } }] });
  });

  it('exit 1 for the server\'s error, 2 for bad input, 3 for a connection failure', { timeout: 240_000 }, () => {
    expect(cli('read', 'everything', 'demo://resource/dynamic/text/0')).toMatchObject({ code: 1, err: expect.stringContaining('demo://resource/dynamic/text/0') });
    expect(cli('read', 'everything', 'demo://resource/dynamic/text/{resourceId}')).toMatchObject({ code: 2, err: expect.stringContaining('give its variables with --vars') });
    expect(cli('read', 'everything', 'demo://x/{id}', '--vars', '{"id":3}')).toMatchObject({ code: 2, err: expect.stringContaining('"id" must be a string') });
    expect(cli('prompt', 'everything', 'args-prompt', '--args', '{nope')).toMatchObject({ code: 2, err: expect.stringContaining('--args is not valid JSON') });
    expect(cli('prompt', 'everything', 'args-prompt')).toMatchObject({ code: 2, err: expect.stringContaining('needs "city"') });
    expect(cli('prompt', 'everything', 'no-such-prompt')).toMatchObject({ code: 2, err: expect.stringContaining('has no prompt "no-such-prompt"') });
    expect(cli('resources', 'nosuch').code).toBe(2);
    expect(cli('prompts', 'missing')).toMatchObject({ code: 3, err: expect.stringContaining('command not found') });
  });
});
