/**
 * Skills through the real host core and runner: folders holding a SKILL.md are found in
 * `<home>/skills`, `~/.claude/skills`, `~/.agents/skills` and `~/.codex/skills` (temp folders
 * here), listed by `settings.skills` without absolute paths; a thread's enabled skills are
 * listed by `{{available_skills}}` in what the model gets, and the `skill` built-in tool loads
 * one (its SKILL.md body and files) in the runner process, refusing a skill not enabled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostResult, RunRecord } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, userMessage } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, RecordingClient, waitFor, hostCores, readThread } from '../../support/host-harness';
import { tempFolder } from '../../support/temp-folder';
import { discoverSkills, runSkills, skillRoots } from '../../../main/core/skills/discover';

const startCore = hostCores();
const tmp = tempFolder('stepwise-skills-', 'test');

function skill(dir: string, md: string, extra: Record<string, string> = {}): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), md);
  for (const [name, text] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

/** A Stepwise home and a user home with skills in every folder kind, problems included. */
function layout(home: string) {
  const user = tmp('user');
  skill(path.join(home, 'skills', 'alpha'), '---\nname: alpha\ndescription: Does alpha things.\n---\n# Alpha\nStep one.\n', { 'scripts/run.sh': 'echo hi', '.hidden': 'x' });
  skill(path.join(user, '.claude', 'skills', 'alpha-again'), '---\nname: alpha\ndescription: A second alpha.\n---\nbody');
  // A symlinked skill folder (how people share skills between agents) is followed.
  skill(tmp('elsewhere', 'beta'), '---\nname: beta\ndescription: "Beta: the second."\n---\nBeta body');
  fs.symlinkSync(tmp('elsewhere', 'beta'), path.join(user, '.claude', 'skills', 'beta'));
  skill(path.join(user, '.agents', 'skills', 'broken'), '---\nname: broken\n---\nno description');
  fs.mkdirSync(path.join(user, '.agents', 'skills', 'not-a-skill'), { recursive: true });
  fs.writeFileSync(path.join(user, '.agents', 'skills', 'README.md'), 'a file, not a skill folder');
  // ~/.codex/skills does not exist: no error.
  return user;
}

describe('skills', () => {
  it('finds skills in every folder in order, flags duplicates and bad files, and lists no absolute path', async () => {
    const home = makeHome();
    const user = layout(home);
    const found = await discoverSkills(skillRoots(home, user));
    expect(found.map((s) => [s.source, s.name, s.problem ?? null])).toEqual([
      ['stepwise', 'alpha', null],
      ['claude', 'alpha', '<home>/skills/alpha already has a skill named "alpha"'],
      ['claude', 'beta', null],
      ['agents', 'broken', 'the front matter of SKILL.md has no "description"'],
    ]);
    const core = await startCore({ home, userHome: user, runnerEntry: bundledRunner() });
    const conn = core.connect(new RecordingClient().send);
    const listed = (await conn.request('settings.skills', {})) as HostResult<'settings.skills'>;
    expect(listed[2]).toEqual({ name: 'beta', description: 'Beta: the second.', source: 'claude', location: '~/.claude/skills/beta' });
    expect(JSON.stringify(listed)).not.toContain(home);
    expect(JSON.stringify(listed)).not.toContain(user);
    const run = await runSkills(skillRoots(home, user), ['alpha', 'broken', 'nope']);
    expect(run).toEqual([{ name: 'alpha', description: 'Does alpha things.', dir: path.join(home, 'skills', 'alpha'), files: ['SKILL.md', 'scripts/run.sh'] }]);
  });

  it('lists enabled skills in {{available_skills}} and loads one with the skill tool in the runner', async () => {
    const home = makeHome();
    const user = layout(home);
    const thread: Thread = scriptedThread(
      [{ toolCalls: [{ name: 'skill', arguments: { name: 'alpha' } }, { name: 'skill', arguments: { name: 'gamma' } }] }, { text: 'done' }],
      { tools: [{ type: 'builtin', name: 'skill', description: 'Load a skill.' }], messages: [userMessage('go')] },
    );
    thread.context.systemPrompt = 'Skills:\n{{available_skills}}';
    thread.settings = { skills: ['alpha', 'beta'] };
    fs.writeFileSync(path.join(home, 'workspace', 't.json'), JSON.stringify(thread));
    const core = await startCore({ home, userHome: user, runnerEntry: bundledRunner() });
    const c = new RecordingClient();
    const conn = core.connect(c.send);
    await conn.request('thread.open', { path: 't.json' });
    await conn.request('stream.subscribe', { threadId: thread.id });
    const preview = (await conn.request('thread.render', { threadId: thread.id, place: 'systemPrompt' })) as HostResult<'thread.render'>;
    expect(preview.places[0].text).toEqual(['Skills:\n- alpha: Does alpha things.\n- beta: Beta: the second.']);
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'react' })) as { runId: string };
    await waitFor(() => c.ended.get(runId), 20_000, 'run end');
    const rec = (await conn.request('run.get', { threadId: thread.id, runId })) as RunRecord;
    expect(rec.status).toBe('completed');
    expect((rec.records[0].request as { system: string }).system).toBe('Skills:\n- alpha: Does alpha things.\n- beta: Beta: the second.');
    await core.threads.flush(thread.id);
    const calls = readThread(home, 't.json').context.messages.find((m) => m.role === 'assistant')!;
    const [loaded, refused] = calls.role === 'assistant' ? calls.toolCalls! : [];
    expect(loaded.output?.isError).toBe(false);
    const text = (loaded.output?.content[0] as { text: string }).text;
    expect(text).toContain('# Skill: alpha\n\n# Alpha\nStep one.');
    expect(text).toContain('- scripts/run.sh');
    expect(loaded.output?.structuredContent).toEqual({ kind: 'skill', name: 'alpha', description: 'Does alpha things.', files: ['SKILL.md', 'scripts/run.sh'] });
    expect(refused.output).toEqual({ isError: true, content: [{ type: 'text', text: 'skill: no enabled skill named "gamma"; enabled skills: alpha, beta.' }] });
  });
});
