/**
 * The example thread "Fix a failing test" (resources/examples): it loads and seeds like the
 * other examples, runs on the scripted model with the read, edit and bash built-in tools in
 * that order, and its script fixes the shipped project: `node --test` fails there as shipped
 * (a real child process) and passes once the script's edit is applied to a copy.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadThreadFile } from '../../../main/core/threads/thread-file';
import { WorkspaceStore } from '../../../main/core/workspace/workspace-store';
import { REPO_ROOT } from '../../support/repo-files';
import { tempFolder } from '../../support/temp-folder';

const EXAMPLES = path.join(REPO_ROOT, 'resources', 'examples');
const PROJECT = path.join(EXAMPLES, 'fix-a-test');
const tmp = tempFolder('stepwise-fix-a-test-', 'test');

/** `node --test` in `dir`: its exit code and output. */
async function nodeTest(dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--test'], { cwd: dir, env: { PATH: process.env.PATH ?? '' } });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: e.stdout ?? '' };
  }
}

describe('example: Fix a failing test', () => {
  it('is a scripted thread that reads, edits, then runs the tests with built-in tools', async () => {
    const thread = await loadThreadFile(path.join(EXAMPLES, 'Fix a failing test.json'));
    expect(thread.model.provider).toBe('scripted');
    expect(thread.context.tools.map((t) => [t.type, t.name])).toEqual([['builtin', 'read'], ['builtin', 'edit'], ['builtin', 'bash']]);
    expect(thread.settings?.autoRunTools).toBe(true);
    const calls = (thread.model.script ?? []).map((r) => r.toolCalls?.map((c) => c.name) ?? []);
    expect(calls).toEqual([['read'], ['edit'], ['bash'], []]);
    // Seeded with its project, which is the thread's working directory (relative to the workspace).
    expect((thread.settings as { cwd?: string } | undefined)?.cwd).toBe('fix-a-test'); // settings.cwd: the working-directory setting of the built-in tools (branch x-tools)
    const ws = new WorkspaceStore(tmp('workspace'));
    const seeded = await ws.seedExamples(EXAMPLES);
    expect(seeded.map((e) => e.title)).toContain('Fix a failing test');
    expect(await readFile(tmp('workspace', 'fix-a-test', 'math.mjs'), 'utf8')).toBe(await readFile(path.join(PROJECT, 'math.mjs'), 'utf8'));
    // The project holds no .json file the workspace would list as a (broken) thread (the example
    // batch's case threads, under evals/, are threads of that batch).
    expect((await ws.list()).filter((e) => e.kind === 'thread' && !e.path.startsWith('evals/')).map((e) => e.title).sort()).toEqual(seeded.map((e) => e.title).sort());
  });

  it('fixes the shipped project: node --test fails as shipped and passes after the scripted edit', async () => {
    const thread = await loadThreadFile(path.join(EXAMPLES, 'Fix a failing test.json'));
    const script = thread.model.script ?? [];
    const read = script[0].toolCalls![0].arguments as { path: string };
    const edit = script[1].toolCalls![0].arguments as { path: string; old_string: string; new_string: string };
    const bash = script[2].toolCalls![0].arguments as { command: string };
    expect(bash.command).toBe('node --test');
    expect(edit.path).toBe(read.path);
    const work = tmp('project');
    await cp(PROJECT, work, { recursive: true });
    const before = await nodeTest(work);
    expect(before.code).not.toBe(0);
    expect(before.out).toMatch(/# fail 1/);
    // The edit the tool makes: an exact string, present once.
    const file = path.join(work, edit.path);
    const text = await readFile(file, 'utf8');
    expect(text.split(edit.old_string)).toHaveLength(2);
    await writeFile(file, text.replace(edit.old_string, edit.new_string));
    const after = await nodeTest(work);
    expect(after).toMatchObject({ code: 0 });
    expect(after.out).toMatch(/# pass 2/);
  });
});
