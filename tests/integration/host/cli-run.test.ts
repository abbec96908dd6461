/**
 * `stepwise run` end to end: the real CLI process, host core and runner. Exit codes 0 (completed
 * or waiting for tool input), 1 (error, cancelled), 2 (bad input); --events prints envelopes
 * as JSON lines; --dry-run leaves the file alone; Ctrl-C, SIGTERM and SIGHUP cancel and still
 * print the end; a reader that closes the pipe early cancels the run quietly.
 */
import { spawn } from 'node:child_process';
import type { RunRecord } from '../../../shared/protocol/host-api';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, sumTool } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, words } from '../../support/host-harness';
import { startSseServer, sseEvent } from '../../support/sse-server';
import { chatChunk } from '../providers/fixtures';

const cli = path.resolve(import.meta.dirname, '../../../main/cli/index.ts');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], home: string, onStdout?: (all: string, child: ReturnType<typeof spawn>) => void): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'run', ...args, '--home', home], {
      env: { ...process.env, STEPWISE_RUNNER_ENTRY: bundledRunner() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout, child);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function threadFile(home: string, thread: Thread): string {
  const file = path.join(home, 'thread.json');
  fs.writeFileSync(file, JSON.stringify(thread, null, 2));
  return file;
}

/** A thread file (see threadFile) whose last message has one get_sum call, call_1, waiting for its result. */
function threadWaitingForSum(home: string): string {
  const thread = scriptedThread([{ text: 'x' }], { tools: [sumTool] });
  thread.context.messages.push({ id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'call_1', name: 'get_sum', arguments: { a: 1, b: 2 } }] });
  return threadFile(home, thread);
}

const read = (file: string): Thread => JSON.parse(fs.readFileSync(file, 'utf8')) as Thread;

/** Runs the CLI on `file` with `args`; checks it refused them up front: exit 2, `message` on stderr, nothing on stdout, no run recorded. */
async function expectRefused(home: string, file: string, args: string[], message: string): Promise<void> {
  const r = await runCli([file, ...args], home);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(message);
  expect(r.stdout).toBe('');
  expect(read(file).runRefs).toEqual([]);
}

/** The one run file of `thread` in `home`. */
function onlyRun(home: string, thread: Thread): RunRecord {
  const dir = path.join(home, 'runs', thread.id);
  const names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  expect(names).toHaveLength(1);
  return JSON.parse(fs.readFileSync(path.join(dir, names[0]), 'utf8')) as RunRecord;
}

describe('stepwise run', () => {
  it('runs a step, prints the live tree, applies the result and exits 0', async () => {
    const home = makeHome();
    const file = threadFile(home, scriptedThread([{ text: 'The answer is four.' }], { tokensPerSecond: 500 }));
    const r = await runCli([file], home);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/llm scripted .*completed/);
    expect(r.stdout).toContain('The answer is four.');
    const after = read(file);
    expect(after.context.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'The answer is four.' }] });
    expect(after.runRefs).toHaveLength(1);
  }, 60_000);

  it('--events prints every envelope as one JSON line; --dry-run leaves the file alone', async () => {
    const home = makeHome();
    const thread = scriptedThread([{ text: 'streamed text here' }], { tokensPerSecond: 500 });
    const file = threadFile(home, thread);
    const before = fs.readFileSync(file, 'utf8');
    // Also a run of this thread that a host died during, whose result waits for the thread to be opened.
    const crashed = path.join(home, 'runs', thread.id, 'crashed-run.json');
    fs.mkdirSync(path.dirname(crashed), { recursive: true });
    const root = { id: 'root', runId: 'crashed-run', kind: 'run', name: 'step', status: 'running', startedAt: 1 };
    const llm = { ...root, id: 'llm', kind: 'llm', parentId: 'root', output: { text: 'left over' } };
    fs.writeFileSync(crashed, JSON.stringify({ runId: 'crashed-run', threadId: thread.id, mode: 'step', status: 'running', startedAt: 1, nodes: [root, llm], records: [] }));
    const r = await runCli([file, '--events', '--dry-run'], home);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { v: number; type: string; delta?: string });
    expect(lines.every((l) => l.v === 1)).toBe(true);
    expect(new Set(lines.map((l) => l.type))).toEqual(new Set(['tree_update', 'llm_delta', 'run_result']));
    expect(lines.filter((l) => l.type === 'llm_delta').map((l) => l.delta).join('')).toBe('streamed text here');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    // Repaired, its result still waiting for a run that writes the thread.
    expect(JSON.parse(fs.readFileSync(crashed, 'utf8'))).toMatchObject({ status: 'interrupted', resultPending: true });
  }, 60_000);

  it('exits 0 when the step stops at tool calls awaiting input, 1 when the model errors', async () => {
    const home = makeHome();
    const file = threadFile(home, scriptedThread([{ text: 'Let me add.', toolCalls: [{ name: 'get_sum', arguments: { a: 1, b: 2 } }] }], { tools: [sumTool], tokensPerSecond: 500 }));
    const ok = await runCli([file], home);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/tool get_sum — awaiting input/);

    const bad = threadFile(home, scriptedThread([{ text: 'partial', error: 'provider exploded' }], { tokensPerSecond: 500 }));
    const err = await runCli([bad, '--dry-run'], home);
    expect(err.code).toBe(1);
    expect(err.stdout).toMatch(/provider exploded/);
  }, 60_000);

  it('exits 2 with a message on stderr for bad input', async () => {
    const home = makeHome();
    const missing = await runCli([path.join(home, 'nope.json')], home);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: no such file/);
    const file = threadFile(home, scriptedThread([{ text: 'x' }]));
    const mode = await runCli([file, '--mode', 'fast'], home);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/--mode must be step or react/);
    // Nothing to execute is bad input too, refused before a runner starts (no run recorded).
    await expectRefused(home, file, ['--execute-tools'], 'No pending tool calls to run: the last message has none without a result.');
  }, 60_000);

  it('an LLM step while tool calls wait for results is refused up front: exit 2, nothing run', async () => {
    const home = makeHome();
    await expectRefused(home, threadWaitingForSum(home), [], 'Tool calls are waiting for results: get_sum (call_1).');
  }, 60_000);

  it('--execute-tools with an id that is not pending exits 2 and names the pending ones', async () => {
    const home = makeHome();
    const file = threadWaitingForSum(home);
    const r = await runCli([file, '--execute-tools', 'call_9'], home);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Tool call "call_9" is not pending in the last message (pending: get_sum (call_1)).');
    // An empty id is shown quoted, not as a double space.
    const empty = await runCli([file, '--execute-tools', ''], home);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('Tool call "" is not pending in the last message (pending: get_sum (call_1)).');
  }, 60_000);

  it('a provider that stalls mid-stream ends the run in error after its idleTimeoutMs, partial text kept, exit 1', async () => {
    const server = await startSseServer();
    try {
      // Five deltas, then silence with the socket open (cut long after, as a proxy would).
      server.reply({ stream: [...['One ', 'two ', 'three ', 'four ', 'five'].map((t) => sseEvent(chatChunk({ content: t }))), { pause: 8000 }, { destroy: true }] });
      const home = makeHome();
      fs.mkdirSync(path.join(home, 'settings'), { recursive: true });
      fs.writeFileSync(
        path.join(home, 'settings', 'providers.json'),
        JSON.stringify({ providers: [{ id: 'stall', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: 'sk-local-test-123456', idleTimeoutMs: 300 }] }),
      );
      const file = threadFile(home, { ...scriptedThread([]), model: { provider: 'stall', id: 'test-model', params: {} } });
      const r = await runCli([file], home);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/llm test-model \(stall\/test-model\) — error/);
      expect(r.stdout).toContain('the provider sent nothing for 0.3 s');
      expect(r.stdout).not.toMatch(/connection lost|cancel/i);
      const last = read(file).context.messages.at(-1);
      expect(last).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'One two three four five' }], stopReason: 'error' });
      expect((last as { errorMessage?: string }).errorMessage).toContain('the provider sent nothing for 0.3 s');
      expect(read(file).runRefs.at(-1)?.status).toBe('error');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('Ctrl-C cancels the run, prints the terminal updates and exits 1', async () => {
    const home = makeHome();
    const text = words(400);
    const file = threadFile(home, scriptedThread([{ text }], { tokensPerSecond: 40 }));
    let sent = false;
    const r = await runCli([file], home, (all, child) => {
      if (!sent && /w3 /.test(all)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    expect(sent).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cancelling/);
    expect(r.stdout).toMatch(/llm scripted .*cancelled/);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('run cancelled');
    const ref = read(file).runRefs.at(-1)!;
    expect(ref.status).toBe('cancelled');
  }, 60_000);

  it.each(['SIGTERM', 'SIGHUP'] as const)('%s cancels the run as Ctrl-C does: the run file and the thread end cancelled, exit 1', async (signal) => {
    const home = makeHome();
    const thread = scriptedThread([{ text: words(400) }], { tokensPerSecond: 40 });
    const file = threadFile(home, thread);
    let sent = false;
    const r = await runCli([file], home, (all, child) => {
      if (!sent && /w3 /.test(all)) {
        sent = true;
        child.kill(signal);
      }
    });
    expect(sent).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cancelling (${signal} again to stop at once)`);
    expect(r.stdout).toMatch(/llm scripted .*cancelled/);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('run cancelled');
    expect(onlyRun(home, thread).status).toBe('cancelled');
    expect(read(file).runRefs.at(-1)!.status).toBe('cancelled');
  }, 60_000);

  it('--events | head -1: the closed pipe cancels the run, which exits 1 without a word on stderr', async () => {
    const home = makeHome();
    const thread = scriptedThread([{ text: words(400) }], { tokensPerSecond: 40 });
    const file = threadFile(home, thread);
    const errFile = path.join(home, 'stderr.txt');
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    // A real pipe to a reader that exits after the first line; PIPESTATUS gives the CLI's own exit code.
    const script = `${q(process.execPath)} --import tsx ${q(cli)} run ${q(file)} --events --home ${q(home)} 2>${q(errFile)} | head -n 1; ` + 'echo "cli exit ${PIPESTATUS[0]}"';
    const r = await new Promise<Result>((resolve) => {
      const child = spawn('bash', ['-c', script], { env: { ...process.env, STEPWISE_RUNNER_ENTRY: bundledRunner() }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
    const [first, status, ...rest] = r.stdout.trim().split('\n');
    expect(JSON.parse(first)).toMatchObject({ v: 1, type: 'tree_update' });
    expect([status, rest]).toEqual(['cli exit 1', []]);
    expect(fs.readFileSync(errFile, 'utf8')).toBe('');
    expect(onlyRun(home, thread).status).toBe('cancelled');
    expect(read(file).runRefs.at(-1)!.status).toBe('cancelled');
  }, 60_000);
});
