/**
 * `stepwise run` with MCP tools: the CLI starts an mcp-host for the run from the home's
 * settings/mcp.json, so a thread's MCP tool calls run step by step from the terminal too;
 * a tool step whose tool fails prints why and exits 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stepwise } from '../../support/cli';
import { seedMcpConfig } from '../../../main/web/seed';

/** `stepwise run <args…>`. */
const runCli = (args: string[]) => stepwise(['run', ...args]);

describe('stepwise run with MCP tools', () => {
  it('steps through the example: the model calls the tools, --execute-tools runs them against server-everything', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-cli-mcp-'));
    expect(await seedMcpConfig(home)).toBe(true);
    const example = JSON.parse(fs.readFileSync(path.resolve('resources/examples/MCP agent, step by step.json'), 'utf8'));
    example.model.params.tokensPerSecond = 500;
    const file = path.join(home, 'thread.json');
    fs.writeFileSync(file, JSON.stringify(example));

    const step = await runCli([file, '--home', home]);
    expect(step.code).toBe(0);
    expect(step.stdout).toContain('tool get-sum — awaiting input {"a":17,"b":25}');

    const tools = await runCli([file, '--home', home, '--execute-tools']);
    expect(tools.stderr).toBe('');
    expect(tools.code).toBe(0);
    expect(tools.stdout).toContain('→ The sum of 17 and 25 is 42.');
    expect(tools.stdout).toMatch(/sampling .* — completed/);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    const calls = saved.context.messages.at(-1).toolCalls;
    expect(calls[0].output.content[0].text).toBe('The sum of 17 and 25 is 42.');

    // A tool that fails (bad arguments) prints why and exits 1.
    saved.context.messages.at(-1).toolCalls = [{ id: 'bad', name: 'get-sum', arguments: { a: 'x' } }];
    fs.writeFileSync(file, JSON.stringify(saved));
    const bad = await runCli([file, '--home', home, '--execute-tools', '--dry-run']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/tool get-sum — error.*\n.*→ .*\/a must be number/);
    expect(bad.stderr).toContain('1 tool call ended in error');
  }, 120_000);
});
