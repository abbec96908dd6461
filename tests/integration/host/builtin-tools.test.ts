/**
 * Built-in tools run in a real agent-runner process, in a temporary working directory: each
 * file tool on real files; escapes (`..`, an absolute path outside, a symbolic link leading
 * out, a dangling one) refused; edit failing clearly; a multi-file apply_patch; bash with a
 * minimal environment, a command that never ends killed with its whole process group on timeout
 * and on cancel; approval holding ReAct at a file change with its diff; ask_user_question
 * answered through `input`.
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSpec } from '../../../shared/protocol/runner';
import type { ScriptedResponse } from '../../../shared/thread/model-config';
import type { Thread } from '../../../shared/thread/schema';
import type { Tool } from '../../../shared/thread/tools';
import type { ToolCall, ToolOutput } from '../../../shared/thread/messages';
import { approvalPreview, questionsOf, toolResultView, type FileChanges } from '../../../shared/tools/builtin-results';
import { threadWith, userMessage } from '../../support/threads';
import { tempFolder } from '../../support/temp-folder';
import { waitFor } from '../../support/host-harness';
import { startRunnerRun, toolNodes, type RunnerRun } from '../../support/runner-process';

const dir = tempFolder('stepwise-builtin-', 'test');
const runs: RunnerRun[] = [];
afterEach(() => {
  for (const r of runs.splice(0)) r.link.kill('SIGKILL');
});

const NAMES = ['read', 'write', 'edit', 'apply_patch', 'ls', 'glob', 'grep', 'bash', 'web_fetch', 'todo_write', 'ask_user_question', 'sleep'];
const builtins: Tool[] = NAMES.map((name) => ({ type: 'builtin', name }));

function thread(opts: { calls?: { name: string; arguments: Record<string, unknown> }[]; script?: ScriptedResponse[]; allowTools?: string[]; react?: boolean }): Thread {
  const messages: Thread['context']['messages'] = [userMessage('go')];
  if (opts.calls) messages.push({ id: 'a1', role: 'assistant', content: [], toolCalls: opts.calls.map((c, i) => ({ id: `c${i + 1}`, ...c })) });
  const t = threadWith({ tools: builtins, messages }, { model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 5000 }, script: opts.script } });
  t.settings = { cwd: dir('cwd'), ...(opts.react ? { autoRunTools: true, maxTurns: 4 } : {}), ...(opts.allowTools ? { allowTools: opts.allowTools } : {}) };
  return t;
}

function start(t: Thread, mode: RunSpec['mode']): RunnerRun {
  fs.mkdirSync(dir('home', 'workspace'), { recursive: true });
  const run = startRunnerRun({ runId: `r-${Math.random().toString(36).slice(2)}`, threadId: t.id, thread: t, mode, providers: [], home: dir('home'), workspaceDir: dir('home', 'workspace') });
  runs.push(run);
  return run;
}

/** Runs the calls as a tool step; their outputs in call order. */
async function toolStep(calls: { name: string; arguments: Record<string, unknown> }[]): Promise<ToolOutput[]> {
  const run = start(thread({ calls }), 'tool');
  await run.exited();
  const outs = run.result()!.toolOutputs;
  return calls.map((_, i) => outs.find((o) => o.toolCallId === `c${i + 1}`)!.output);
}

const text = (o: ToolOutput) => o.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function setUpFiles(): void {
  fs.mkdirSync(dir('cwd', 'src'), { recursive: true });
  fs.writeFileSync(dir('cwd', 'src', 'a.txt'), 'one\ntwo\nthree\ntwo\n');
  fs.writeFileSync(dir('cwd', 'src', 'b.ts'), 'export const x = 1;\n');
  fs.writeFileSync(dir('outside.txt'), 'secret\n');
  fs.symlinkSync(dir('outside.txt'), dir('cwd', 'link-out'));
  fs.symlinkSync(dir(), dir('cwd', 'dir-out'));
  fs.symlinkSync(dir('nothing-yet.txt'), dir('cwd', 'dangling-out'));
}

describe('built-in file tools in a runner process', () => {
  it('read, ls, glob and grep see the working directory', async () => {
    setUpFiles();
    const [read, ranged, ls, glob, grep] = await toolStep([
      { name: 'read', arguments: { path: 'src/a.txt' } },
      { name: 'read', arguments: { path: dir('cwd', 'src', 'a.txt'), offset: 2, limit: 2 } },
      { name: 'ls', arguments: { path: 'src' } },
      { name: 'glob', arguments: { pattern: '**/*.ts' } },
      { name: 'grep', arguments: { pattern: '^t', glob: '**/*.txt' } },
    ]);
    expect(text(read)).toBe('1\tone\n2\ttwo\n3\tthree\n4\ttwo');
    expect(text(ranged)).toBe('2\ttwo\n3\tthree\n(lines 2–3 of 4; read on with offset 4)');
    expect(text(ls)).toBe('a.txt\nb.ts');
    expect(text(glob)).toBe('src/b.ts');
    expect(text(grep)).toBe('src/a.txt:2: two\nsrc/a.txt:3: three\nsrc/a.txt:4: two');
  });

  it('refuses .., absolute paths outside and symbolic links leading out, for reading and writing', async () => {
    setUpFiles();
    const outs = await toolStep([
      { name: 'read', arguments: { path: '../outside.txt' } },
      { name: 'read', arguments: { path: dir('outside.txt') } },
      { name: 'read', arguments: { path: 'link-out' } },
      { name: 'read', arguments: { path: 'dir-out/outside.txt' } },
      { name: 'write', arguments: { path: 'src/../../outside.txt', content: 'pwned' } },
      { name: 'write', arguments: { path: 'link-out', content: 'pwned' } },
      { name: 'write', arguments: { path: 'dangling-out', content: 'pwned' } },
      { name: 'edit', arguments: { path: 'dir-out/outside.txt', old_string: 'secret', new_string: 'pwned' } },
      { name: 'apply_patch', arguments: { patch: '--- a/../outside.txt\n+++ b/../outside.txt\n@@ -1 +1 @@\n-secret\n+pwned\n' } },
      { name: 'ls', arguments: { path: '..' } },
      { name: 'grep', arguments: { pattern: 'secret' } },
      { name: 'glob', arguments: { pattern: '../*' } },
    ]);
    for (const o of outs.slice(0, 10)) {
      expect(o.isError, text(o)).toBe(true);
      expect(text(o)).toMatch(/refused/);
      expect(text(o)).not.toContain(dir('cwd'));
    }
    expect(text(outs[10])).toBe('No matches.'); // grep does not follow links out
    expect(outs[11].isError).toBe(true);
    expect(fs.readFileSync(dir('outside.txt'), 'utf8')).toBe('secret\n');
    expect(fs.existsSync(dir('nothing-yet.txt'))).toBe(false);
  });

  it('write, edit and apply_patch change files and say how; edit fails clearly when the text is absent or not unique', async () => {
    setUpFiles();
    const [write, absent, twice, edit, patch] = await toolStep([
      { name: 'write', arguments: { path: 'new/c.txt', content: 'hello\n' } },
      { name: 'edit', arguments: { path: 'src/a.txt', old_string: 'four', new_string: '4' } },
      { name: 'edit', arguments: { path: 'src/a.txt', old_string: 'two', new_string: '2' } },
      { name: 'edit', arguments: { path: 'src/a.txt', old_string: 'three', new_string: '3' } },
      {
        name: 'apply_patch',
        arguments: { patch: '--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-export const x = 1;\n+export const x = 2;\n--- /dev/null\n+++ b/src/d.ts\n@@ -0,0 +1 @@\n+export const d = 4;\n' },
      },
    ]);
    expect(write.structuredContent).toMatchObject({ kind: 'file_change', path: 'new/c.txt', before: null, after: 'hello\n' });
    expect(fs.readFileSync(dir('cwd', 'new', 'c.txt'), 'utf8')).toBe('hello\n');
    expect(absent.isError).toBe(true);
    expect(text(absent)).toMatch(/old_string was not found in "src\/a\.txt" \(0 occurrences\)/);
    expect(twice.isError).toBe(true);
    expect(text(twice)).toMatch(/old_string occurs 2 times in "src\/a\.txt"; it must be unique/);
    expect(edit.structuredContent).toMatchObject({ kind: 'file_change', path: 'src/a.txt', before: 'one\ntwo\nthree\ntwo\n', after: 'one\ntwo\n3\ntwo\n' });
    expect((edit.structuredContent as { diff: string }).diff).toMatch(/-three\n\+3/);
    expect(patch.structuredContent).toMatchObject({ kind: 'file_changes', changes: [{ path: 'src/b.ts', after: 'export const x = 2;\n' }, { path: 'src/d.ts', before: null, after: 'export const d = 4;\n' }] });
    expect(fs.readFileSync(dir('cwd', 'src', 'b.ts'), 'utf8')).toBe('export const x = 2;\n');
    expect(fs.readFileSync(dir('cwd', 'src', 'd.ts'), 'utf8')).toBe('export const d = 4;\n');
    // What the runner wrote is what the UI's reader (shared/tools/builtin-results.ts) reads back, nothing lost.
    expect(toolResultView(write.structuredContent)).toEqual({ kind: 'files', changes: [write.structuredContent] });
    expect(toolResultView(patch.structuredContent)).toEqual({ kind: 'files', changes: (patch.structuredContent as FileChanges).changes });
  });

  it('a patch that does not apply changes nothing, not even the files before it', async () => {
    setUpFiles();
    const [patch] = await toolStep([
      { name: 'apply_patch', arguments: { patch: '--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-export const x = 1;\n+export const x = 2;\n--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1 +1 @@\n-zero\n+0\n' } },
    ]);
    expect(patch.isError).toBe(true);
    expect(text(patch)).toMatch(/does not apply to "src\/a\.txt"/);
    expect(fs.readFileSync(dir('cwd', 'src', 'b.ts'), 'utf8')).toBe('export const x = 1;\n');
  });
});

describe('bash in a runner process', () => {
  it('runs in the working directory with PATH, HOME and LANG only', async () => {
    fs.mkdirSync(dir('cwd'), { recursive: true });
    const [out] = await toolStep([{ name: 'bash', arguments: { command: 'pwd; env | cut -d= -f1 | sort | tr "\\n" " "; echo err >&2; exit 3' } }]);
    const r = out.structuredContent as { exitCode: number; stdout: string; stderr: string; timedOut: boolean };
    expect(r).toMatchObject({ kind: 'bash', exitCode: 3, stderr: 'err\n', timedOut: false, truncated: false });
    expect(toolResultView(r)).toEqual(r);
    const [pwd, names] = r.stdout.split('\n');
    expect(fs.realpathSync(pwd)).toBe(fs.realpathSync(dir('cwd')));
    // bash adds PWD, SHLVL and _ itself.
    expect(names.trim().split(' ').filter((n) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(n))).toEqual(['HOME', 'LANG', 'PATH']);
    expect(out.isError).toBe(true);
  });

  it('a command that never ends is killed with its whole process group at the timeout', async () => {
    fs.mkdirSync(dir('cwd'), { recursive: true });
    const [out] = await toolStep([{ name: 'bash', arguments: { command: 'sleep 1000 & echo $! > bg.pid; echo started; sleep 1000', timeout_ms: 1500 } }]);
    expect(out.structuredContent).toMatchObject({ kind: 'bash', exitCode: null, signal: 'SIGKILL', stdout: 'started\n', timedOut: true });
    const bg = Number(fs.readFileSync(dir('cwd', 'bg.pid'), 'utf8'));
    await waitFor(() => !alive(bg), 5_000, 'the background sleep to die');
  });

  it('a background job the command leaves is killed when the command ends', async () => {
    fs.mkdirSync(dir('cwd'), { recursive: true });
    const [out] = await toolStep([{ name: 'bash', arguments: { command: 'sleep 1000 > /dev/null 2>&1 & echo $! > bg.pid; echo done' } }]);
    expect(out.structuredContent).toMatchObject({ kind: 'bash', exitCode: 0, stdout: 'done\n', timedOut: false });
    const bg = Number(fs.readFileSync(dir('cwd', 'bg.pid'), 'utf8'));
    await waitFor(() => !alive(bg), 5_000, 'the background sleep to die');
  });

  it('cancelling the run kills the command and its process group', async () => {
    fs.mkdirSync(dir('cwd'), { recursive: true });
    const run = start(thread({ calls: [{ name: 'bash', arguments: { command: 'sleep 1000 & echo $! > bg.pid; echo $$ > sh.pid; sleep 1000' } }] }), 'tool');
    await waitFor(() => fs.existsSync(dir('cwd', 'sh.pid')) && fs.readFileSync(dir('cwd', 'sh.pid'), 'utf8').endsWith('\n'), 20_000, 'bash to start');
    const pids = ['bg.pid', 'sh.pid'].map((f) => Number(fs.readFileSync(dir('cwd', f), 'utf8')));
    run.cancel();
    await run.exited();
    expect(run.result()?.status).toBe('cancelled');
    await waitFor(() => pids.every((p) => !alive(p)), 5_000, 'the command and its child to die');
  });

  it('output past the cap is cut and says so', async () => {
    fs.mkdirSync(dir('cwd'), { recursive: true });
    const [out] = await toolStep([{ name: 'bash', arguments: { command: 'head -c 100000 /dev/zero | tr "\\0" x' } }]);
    const r = out.structuredContent as { stdout: string; truncated: boolean };
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBe(30_000);
  });
});

describe('approval, questions and the other built-in tools', () => {
  it('ReAct stops at an edit for approval, its diff on the node, the file untouched; allowTools lets it run', async () => {
    setUpFiles();
    const script: ScriptedResponse[] = [{ text: 'Fixing.', toolCalls: [{ name: 'edit', arguments: { path: 'src/a.txt', old_string: 'three', new_string: '3' } }] }, { text: 'Done.' }];
    const held = start(thread({ script, react: true }), 'react');
    await held.exited();
    const [node] = toolNodes(held);
    expect(node.status).toBe('awaiting_input');
    expect(node.attrs?.preview).toEqual({ kind: 'file_change', path: 'src/a.txt', diff: expect.stringMatching(/-three\n\+3/) });
    expect(approvalPreview(node.attrs?.preview)).toEqual(node.attrs?.preview);
    expect(fs.readFileSync(dir('cwd', 'src', 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\ntwo\n');

    const bashHeld = start(thread({ script: [{ toolCalls: [{ name: 'bash', arguments: { command: 'touch ran' } }] }], react: true }), 'react');
    await bashHeld.exited();
    expect(toolNodes(bashHeld)[0].attrs?.preview).toEqual({ kind: 'bash', command: 'touch ran', cwd: dir('cwd') });
    expect(approvalPreview(toolNodes(bashHeld)[0].attrs?.preview)).toEqual(toolNodes(bashHeld)[0].attrs?.preview);
    expect(fs.existsSync(dir('cwd', 'ran'))).toBe(false);

    // Step mode holds every call; a file change shows its diff there too.
    const step = start(thread({ script }), 'step');
    await step.exited();
    expect(toolNodes(step)[0]).toMatchObject({ status: 'awaiting_input', attrs: { preview: { kind: 'file_change', path: 'src/a.txt' } } });

    const allowed = start(thread({ script, react: true, allowTools: ['edit'] }), 'react');
    await allowed.exited();
    expect(toolNodes(allowed)[0].status).toBe('completed');
    expect(fs.readFileSync(dir('cwd', 'src', 'a.txt'), 'utf8')).toBe('one\ntwo\n3\ntwo\n');
    const last = allowed.result()!.messages.at(-1)!;
    expect(last.content).toEqual([{ type: 'text', text: 'Done.' }]);
  });

  it('ask_user_question waits with a question form; the answer is the tool result', async () => {
    const questions = [{ id: 'color', question: 'Which colour?', options: ['red', 'blue'] }];
    const run = start(thread({ script: [{ toolCalls: [{ name: 'ask_user_question', arguments: { questions } }] }, { text: 'Blue it is.' }], react: true }), 'react');
    const node = await waitFor(() => toolNodes(run).find((n) => n.status === 'awaiting_input'), 20_000, 'the question');
    expect(node.attrs?.inputRequest).toEqual({ kind: 'question', questions });
    expect(questionsOf(node.attrs?.inputRequest)).toEqual(questions);
    run.input(node.id, { kind: 'answers', answers: { color: 'blue' } });
    await run.exited();
    const calls = run.result()!.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : [])) as ToolCall[];
    expect(calls[0].output?.structuredContent).toEqual({ kind: 'answers', answers: { color: 'blue' } });
    expect(text(calls[0].output!)).toBe('Which colour?\n→ blue');
  });

  it('todo_write, sleep and web_fetch (http only, size-capped)', async () => {
    const server = http.createServer((req, res) => {
      res.setHeader('content-type', req.url === '/big' ? 'text/plain' : 'text/html');
      res.end(req.url === '/big' ? 'y'.repeat(2 * 1024 * 1024) : '<h1>Hi</h1>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const items = [{ content: 'read', status: 'completed' }, { content: 'fix', status: 'in_progress' }];
      const [todo, sleep, page, big, file] = await toolStep([
        { name: 'todo_write', arguments: { items } },
        { name: 'sleep', arguments: { seconds: 0.01 } },
        { name: 'web_fetch', arguments: { url: `${base}/` } },
        { name: 'web_fetch', arguments: { url: `${base}/big` } },
        { name: 'web_fetch', arguments: { url: 'file:///etc/passwd' } },
      ]);
      expect(todo.structuredContent).toEqual({ kind: 'todo', items });
      expect(toolResultView(todo.structuredContent)).toEqual(todo.structuredContent);
      expect(text(sleep)).toBe('Slept 0.01 s.');
      expect(text(page)).toMatch(/^# Hi$/m); // the HTML as markdown (turndown)
      expect(text(page)).not.toContain('<h1>');
      expect(page.structuredContent).toMatchObject({ kind: 'web_page', status: 200 });
      expect(big.structuredContent).toMatchObject({ truncated: true });
      expect(text(big).length).toBeLessThan(1024 * 1024 + 500);
      expect(file.isError).toBe(true);
      expect(text(file)).toMatch(/only http and https/);
    } finally {
      server.close();
    }
  });

  it('sleep ends when the run is cancelled', async () => {
    const run = start(thread({ calls: [{ name: 'sleep', arguments: { seconds: 300 } }] }), 'tool');
    await waitFor(() => toolNodes(run).find((n) => n.status === 'running'), 20_000, 'sleep to start');
    run.cancel();
    await run.exited();
    expect(run.result()?.status).toBe('cancelled');
  });
});
