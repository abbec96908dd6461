/**
 * Templates through the real host core and runner (docs/architecture.md#templates): the model
 * gets the rendered text (the run's raw request shows it) and the run record keeps it; a
 * template error refuses the run before any runner starts; the next run reuses the frozen
 * text of unchanged places, re-renders an edited place only, and renders afresh when asked;
 * the scenario used is recorded on the run; `thread.render` previews places or names the error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostResult, RunRecord } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, userMessage } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, RecordingClient, waitFor, rejection, hostCores } from '../../support/host-harness';

const startCore = hostCores();

function templatedThread(): Thread {
  const t = scriptedThread([{ text: 'one' }, { text: 'two' }, { text: 'three' }], { messages: [userMessage('Plan for {{ profile.name | upper }} on {{ current_date }}')] });
  t.context.systemPrompt = 'You help {{ who }}.\n{{@include("parts/rules.md")}}';
  t.context.variables = { who: 'Ada', tone: 'kind', profile: '{"name":"grace"}', current_date: 'iso-date' };
  t.context.variableTypes = { profile: 'json' };
  t.context.scenarios = [{ name: 'beta', variables: { who: 'Bob' } }];
  return t;
}

async function setup(thread: Thread) {
  const home = makeHome({ 't.json': thread });
  fs.mkdirSync(path.join(home, 'workspace', 'parts'));
  fs.writeFileSync(path.join(home, 'workspace', 'parts', 'rules.md'), 'Rule: be {{ tone }}.');
  const core = await startCore({ home, runnerEntry: bundledRunner() });
  const c = new RecordingClient();
  const conn = core.connect(c.send);
  await conn.request('thread.open', { path: 't.json' });
  await conn.request('stream.subscribe', { threadId: thread.id });
  const run = async (params: Record<string, unknown> = {}): Promise<RunRecord> => {
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step', ...params })) as { runId: string };
    await waitFor(() => c.ended.get(runId), 20_000, 'run end');
    return (await conn.request('run.get', { threadId: thread.id, runId })) as RunRecord;
  };
  const edit = async (patches: unknown[]) => {
    const version = core.threads.get(thread.id).version;
    await conn.request('thread.edit', { threadId: thread.id, baseVersion: version, patches });
  };
  return { home, core, conn, run, edit };
}

type Sent = { system: string; messages: { id: string; content: { text: string }[] }[] };
const sent = (rec: RunRecord): Sent => rec.records[0].request as Sent;

describe('templates in runs', () => {
  it('sends the rendered text, records it, reuses it, and re-renders an edited place only', async () => {
    const thread = templatedThread();
    const { home, run, edit, conn } = await setup(thread);
    const today = new Date();
    const iso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    const first = await run();
    expect(first.status).toBe('completed');
    expect(sent(first).system).toBe('You help Ada.\nRule: be kind.');
    expect(sent(first).messages[0].content[0].text).toBe(`Plan for GRACE on ${iso}`);
    const userKey = `message:${thread.context.messages[0].id}`;
    expect(first.renders?.places).toEqual({
      systemPrompt: { source: [thread.context.systemPrompt], text: ['You help Ada.\nRule: be kind.'] },
      [userKey]: { source: [thread.context.messages[0].content[0].type === 'text' ? thread.context.messages[0].content[0].text : ''], text: [`Plan for GRACE on ${iso}`] },
    });

    // The included file changes: unchanged places are sent as frozen by the last run.
    fs.writeFileSync(path.join(home, 'workspace', 'parts', 'rules.md'), 'Rule: be terse.');
    const second = await run();
    expect(sent(second).system).toBe('You help Ada.\nRule: be kind.');
    // Editing the user message invalidates that place only.
    await edit([{ op: 'replace', path: ['context', 'messages', 0, 'content', 0, 'text'], value: 'Again for {{ profile.name }}' }]);
    const third = await run();
    expect(sent(third).system).toBe('You help Ada.\nRule: be kind.');
    expect(sent(third).messages[0].content[0].text).toBe('Again for grace');
    // Asked to render afresh, the include is read again.
    const preview = (await conn.request('thread.render', { threadId: thread.id, place: 'systemPrompt', fresh: true })) as HostResult<'thread.render'>;
    expect(preview.places).toEqual([{ place: 'systemPrompt', text: ['You help Ada.\nRule: be terse.'], frozen: false }]);
    const frozenPreview = (await conn.request('thread.render', { threadId: thread.id, place: 'systemPrompt' })) as HostResult<'thread.render'>;
    expect(frozenPreview.places[0].frozen).toBe(true);
  });

  it('a scenario overrides variables, re-renders the places, and is recorded on the run and its ref', async () => {
    const thread = templatedThread();
    const { run, core, edit } = await setup(thread);
    await run();
    const beta = await run({ scenario: 'beta' });
    expect(sent(beta).system).toBe('You help Bob.\nRule: be kind.');
    expect(beta.scenario).toBe('beta');
    await waitFor(() => core.threads.get(thread.id).thread.runRefs.length === 2, 5000, 'run refs');
    expect(core.threads.get(thread.id).thread.runRefs[1].scenario).toBe('beta');
    // Picked on the thread (as the UI does), the scenario applies without a parameter.
    await edit([{ op: 'add', path: ['context', 'scenario'], value: 'beta' }]);
    const picked = await run();
    expect(picked.scenario).toBe('beta');
    expect(sent(picked).system).toBe('You help Bob.\nRule: be kind.');
  });

  it('a template error refuses the run before any runner starts, naming place, line and column', async () => {
    const thread = templatedThread();
    const id = thread.context.messages[0].id;
    thread.context.messages[0] = { id, role: 'user', content: [{ type: 'text', text: 'ok\n  {% iff x %}' }] };
    const { conn, home } = await setup(thread);
    const err = await rejection(conn.request('run.start', { threadId: thread.id, mode: 'step' }));
    expect(err.code).toBe('template_error');
    expect(err.message).toBe(`message:${id}, line 2, column 6: unknown block tag: iff`);
    expect(fs.existsSync(path.join(home, 'runs', thread.id))).toBe(false);
    const preview = (await conn.request('thread.render', { threadId: thread.id })) as HostResult<'thread.render'>;
    expect(preview.error).toMatchObject({ place: `message:${id}`, line: 2, column: 6 });
    const unknown = await rejection(conn.request('run.start', { threadId: thread.id, mode: 'step', scenario: 'gamma' }));
    expect(unknown.message).toBe('scenario: unknown scenario "gamma": the thread has "beta"');
  });

  it('refuses an include that leaves the workspace', async () => {
    const thread = templatedThread();
    thread.context.systemPrompt = 'x {{@include("../settings/providers.json")}}';
    const { conn } = await setup(thread);
    const err = await rejection(conn.request('run.start', { threadId: thread.id, mode: 'step' }));
    expect(err.code).toBe('template_error');
    expect(err.message).toMatch(/^systemPrompt, line 1, column \d+: @include\("\.\.\/settings\/providers\.json"\): refused path .*'\.\.' would leave the workspace/);
  });

  it('current_working_directory is the thread working directory: <home>/work/<thread id>, or settings.cwd', async () => {
    const thread = templatedThread();
    thread.context.systemPrompt = 'cwd={{ current_working_directory }}';
    const { home, conn, edit } = await setup(thread);
    const render = async () => ((await conn.request('thread.render', { threadId: thread.id, place: 'systemPrompt', fresh: true })) as HostResult<'thread.render'>).places[0].text[0];
    expect(await render()).toBe(`cwd=${path.join(home, 'work', thread.id)}`);
    await edit([{ op: 'add', path: ['settings'], value: { cwd: 'proj' } }]);
    expect(await render()).toBe(`cwd=${path.join(home, 'workspace', 'proj')}`);
  });

  it("a model's reply and a tool run's result are sent as written on the next run, template syntax and all", async () => {
    const reply = 'In Jinja: {% if user %}Hello {{ user.name }} (no end tag).';
    const thread = scriptedThread(
      [{ text: 'Reading.', toolCalls: [{ name: 'read', arguments: { path: 'page.md' } }] }, { text: reply }, { text: 'Continued.' }],
      { tools: [{ type: 'builtin', name: 'read' }], messages: [userMessage('Read page.md for {{ who }}')] },
    );
    thread.settings = { autoRunTools: true };
    thread.context.variables = { who: 'Ada', x: 'X' };
    const page = 'Page for {{ who }}: {{ x }} {% for i in items %}';
    const home = makeHome({ 't.json': thread });
    fs.mkdirSync(path.join(home, 'work', thread.id), { recursive: true });
    fs.writeFileSync(path.join(home, 'work', thread.id, 'page.md'), page);
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const c = new RecordingClient();
    const conn = core.connect(c.send);
    await conn.request('thread.open', { path: 't.json' });
    await conn.request('stream.subscribe', { threadId: thread.id });
    const run = async (mode: string): Promise<RunRecord> => {
      const { runId } = (await conn.request('run.start', { threadId: thread.id, mode })) as { runId: string };
      await waitFor(() => c.ended.get(runId), 20_000, 'run end');
      await waitFor(() => core.threads.get(thread.id).thread.runRefs.some((r) => r.id === runId && r.status !== 'running'), 5000, 'run ref');
      return (await conn.request('run.get', { threadId: thread.id, runId })) as RunRecord;
    };
    expect((await run('react')).status).toBe('completed');
    const messages = core.threads.get(thread.id).thread.context.messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    const version = core.threads.get(thread.id).version;
    await conn.request('thread.edit', { threadId: thread.id, baseVersion: version, patches: [{ op: 'add', path: ['context', 'messages', 3], value: userMessage('Go on, {{ who }}') }] });
    // Continue: the reply's unbalanced {% if %} and the page's template syntax break nothing.
    const next = await run('step');
    expect(next.status).toBe('completed');
    type SentMessage = { content: { type: string; text?: string }[]; toolCalls?: { output?: { content: { text?: string }[] } }[] };
    const req = next.records[0].request as { messages: SentMessage[] };
    expect(req.messages[0].content[0].text).toBe('Read page.md for Ada');
    expect(req.messages[1].toolCalls?.[0].output?.content[0].text).toContain(page);
    expect(req.messages[2].content[0].text).toBe(reply);
    expect(req.messages[3].content[0].text).toBe('Go on, Ada');
  });

  it('a template that runs too long is stopped with an error naming the place, and the host answers meanwhile', async () => {
    const thread = templatedThread();
    thread.context.systemPrompt = '{% for i in range(0, 1000000) %}{% for j in range(0, 1000000) %}{% endfor %}{% endfor %}';
    const { conn, home, edit } = await setup(thread);
    const preview = conn.request('thread.render', { threadId: thread.id }) as Promise<HostResult<'thread.render'>>;
    // The host's event loop is free: another request is answered while the template renders.
    const answered = await Promise.race([conn.request('workspace.list', {}).then(() => 'answered'), preview.then(() => 'rendered')]);
    expect(answered).toBe('answered');
    expect((await preview).error).toEqual({ place: 'systemPrompt', message: 'systemPrompt: rendering took longer than 2 s (a loop too long?) and was stopped' });
    // A run of it is refused the same way, before any runner starts.
    const err = await rejection(conn.request('run.start', { threadId: thread.id, mode: 'step' }));
    expect(err.code).toBe('template_error');
    expect(err.message).toBe('systemPrompt: rendering took longer than 2 s (a loop too long?) and was stopped');
    expect(fs.existsSync(path.join(home, 'runs', thread.id))).toBe(false);
    // range(0, 1e9) is refused at once; then a normal prompt renders as ever.
    await edit([{ op: 'replace', path: ['context', 'systemPrompt'], value: '{% for i in range(0, 1000000000) %}{% endfor %}' }]);
    const billion = (await conn.request('thread.render', { threadId: thread.id })) as HostResult<'thread.render'>;
    expect(billion.error?.message).toBe('systemPrompt, line 1, column 18: range(0, 1000000000, 1) has more than 1000000 items: a loop that long is refused');
    await edit([{ op: 'replace', path: ['context', 'systemPrompt'], value: 'You help {{ who }}.' }]);
    const ok = (await conn.request('thread.render', { threadId: thread.id, place: 'systemPrompt' })) as HostResult<'thread.render'>;
    expect(ok.places[0].text).toEqual(['You help Ada.']);
  });
});
