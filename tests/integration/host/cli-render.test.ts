/**
 * `stepwise render` and `stepwise run --scenario` as real CLI processes
 * (docs/architecture.md#templates): render prints a place's text exactly, or every place under
 * a header; a template error exits 2 naming place, line and column, as does a template that
 * runs too long; `run --scenario` sends the
 * scenario's values (the run's raw request shows them) and records the scenario on the run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, userMessage } from '../../support/threads';
import { runCliProcess } from '../../support/cli-process';
import { makeHome } from '../../support/host-harness';

/** `stepwise <args> --home <home>` as a process. */
const runCli = (args: string[], home: string) => runCliProcess([...args, '--home', home]);

function setup(mutate: (t: Thread) => void = () => {}): { home: string; file: string; thread: Thread } {
  const home = makeHome();
  fs.writeFileSync(path.join(home, 'workspace', 'style.md'), 'Style: {{ tone }}.');
  const thread = scriptedThread([{ text: 'ok' }], { messages: [userMessage('Hi {{ who }}', 'u1')] });
  thread.context.systemPrompt = 'You help {{ who }}.\n{{@include("style.md")}}\n{% for s in steps %}{{ loop.index }}.{{ s }} {% endfor %}';
  thread.context.variables = { who: 'Ada', tone: 'plain', steps: '["plan","do"]' };
  thread.context.variableTypes = { steps: 'json' };
  thread.context.scenarios = [{ name: 'beta', variables: { who: 'Bob', tone: 'bold' } }];
  mutate(thread);
  const file = path.join(home, 'thread.json');
  fs.writeFileSync(file, JSON.stringify(thread, null, 2));
  return { home, file, thread };
}

describe('stepwise render', () => {
  it('prints one place exactly, or every place, with or without a scenario', async () => {
    const { home, file } = setup();
    const one = await runCli(['render', file, '--place', 'systemPrompt'], home);
    expect(one).toEqual({ code: 0, stdout: 'You help Ada.\nStyle: plain.\n1.plan 2.do ', stderr: '' });
    const beta = await runCli(['render', file, '--scenario', 'beta', '--place', 'message:u1'], home);
    expect(beta).toEqual({ code: 0, stdout: 'Hi Bob', stderr: '' });
    const all = await runCli(['render', file], home);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe('== systemPrompt ==\nYou help Ada.\nStyle: plain.\n1.plan 2.do \n\n== message:u1 ==\nHi Ada\n');
  });

  it('exits 2 with place, line and column on a template error, and on an unknown scenario or place', async () => {
    const { home, file } = setup((t) => (t.context.systemPrompt = 'fine\nstill fine {% for x in %}'));
    const bad = await runCli(['render', file], home);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^stepwise render: systemPrompt, line 2, column \d+: /);
    const scen = await runCli(['render', file, '--scenario', 'nope', '--place', 'message:u1'], home);
    expect(scen.code).toBe(2);
    expect(scen.stderr).toBe('stepwise render: scenario: unknown scenario "nope": the thread has "beta"\n');
    const place = await runCli(['render', file, '--place', 'message:zz'], home);
    expect(place.code).toBe(2);
    expect(place.stderr).toContain('the thread has no place message:zz; its places: systemPrompt, message:u1');
  });

  it('stops a template that runs too long and exits 2 naming the place; an idle render worker keeps no process alive', async () => {
    const { home, file } = setup((t) => (t.context.systemPrompt = '{% for i in range(0, 1000000) %}{% for j in range(0, 1000000) %}{% endfor %}{% endfor %}'));
    const slow = await runCli(['render', file], home);
    expect(slow).toEqual({ code: 2, stdout: '', stderr: 'stepwise render: systemPrompt: rendering took longer than 2 s (a loop too long?) and was stopped\n' });
    // Only the user message is rendered: the worker that rendered it stays idle, and the process still exits.
    expect(await runCli(['render', file, '--place', 'message:u1'], home)).toEqual({ code: 0, stdout: 'Hi Ada', stderr: '' });
  });
});

describe('stepwise run --scenario', () => {
  it('sends the scenario\'s values and records the scenario on the run', async () => {
    const { home, file, thread } = setup();
    const r = await runCli(['run', file, '--scenario', 'beta'], home);
    expect(r.code).toBe(0);
    const dir = path.join(home, 'runs', thread.id);
    const [name] = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
    const rec = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as RunRecord;
    expect(rec.scenario).toBe('beta');
    expect((rec.records[0].request as { system: string }).system).toBe('You help Bob.\nStyle: bold.\n1.plan 2.do ');
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Thread;
    expect(saved.runRefs[0].scenario).toBe('beta');
    expect(saved.context.systemPrompt).toBe(thread.context.systemPrompt);
  });

  it('exits 2 on a template error without starting a run', async () => {
    const { home, file, thread } = setup((t) => (t.context.systemPrompt = '{{ who | nosuchfilter }}'));
    const r = await runCli(['run', file], home);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/stepwise run: systemPrompt, line 1, column \d+: .*nosuchfilter/);
    expect(fs.existsSync(path.join(home, 'runs', thread.id))).toBe(false);
  });
});
