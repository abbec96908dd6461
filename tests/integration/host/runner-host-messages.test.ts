/**
 * The runner checks what the host sends it on the `run` channel against the contract
 * (HOST_TO_RUNNER, shared/protocol/contract/runner-channel.ts): the real agent-runner process,
 * sent junk before and during a run, says so on stderr (and, once it runs, as a `log` the
 * bridge accepts) and runs on; sent a malformed `start`, it exits failed, saying what is wrong
 * on stderr (whose tail the host puts in the run's reason).
 */
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import { runnerEntry } from '../../../main/core/process/entries';
import type { ChildExit, ChildFrame, ChildLink } from '../../../main/core/process/types';
import { checkRunnerMessage } from '../../../main/core/bridge/validate';
import type { RunSpec } from '../../../shared/protocol/runner';
import { scriptedThread } from '../../support/threads';
import { waitFor } from '../../support/host-harness';

const links: ChildLink[] = [];
afterEach(() => {
  for (const l of links.splice(0)) l.kill('SIGKILL');
});

function runner() {
  const link = new NodeSpawner({ stdout: 'pipe' }).spawn(runnerEntry(), { name: 'runner-under-test' });
  links.push(link);
  const frames: unknown[] = [];
  let stderr = '';
  let exit: ChildExit | undefined;
  link.onFrame((f: ChildFrame) => f.ch === 'run' && frames.push(f.msg));
  link.onStderr((chunk) => (stderr += chunk));
  link.onExit((e) => (exit = e));
  return { link, frames, stderr: () => stderr, exit: () => exit, send: (msg: unknown) => link.send({ ch: 'run', msg }) };
}

function spec(runId: string): RunSpec {
  return { runId, threadId: 't1', thread: scriptedThread([{ text: 'still here' }], { tokensPerSecond: 50 }), mode: 'step', providers: [], home: os.tmpdir(), workspaceDir: os.tmpdir() };
}

describe('the runner checks the host’s messages', () => {
  it('ignores junk before and during a run, saying so, and the run completes', async () => {
    const r = runner();
    r.send('hello');
    r.send(null);
    r.send({ type: 'mystery' });
    r.send({ type: 'cancel', reason: 5 });
    r.send({ type: 'start', spec: spec('r-ok') });
    r.send({ type: 'input', nodeId: 5, value: 'x' });
    r.send({ type: 'start', spec: 'again' });
    await waitFor(() => r.exit(), 30_000, 'runner exit');
    expect(r.exit()).toMatchObject({ code: 0 });
    const text = r.frames.filter((f) => (f as { type?: string }).type === 'llm_delta').map((f) => (f as { delta: string }).delta).join('');
    expect(text).toBe('still here');
    expect(r.frames.at(-1)).toEqual({ v: 1, type: 'done', runId: 'r-ok' });
    const ignored = r.stderr().split('\n').filter((l) => l.startsWith('stepwise runner: ignored a malformed'));
    expect(ignored).toEqual([
      expect.stringMatching(/message from the host: \/: not an object \(string\)$/),
      expect.stringMatching(/message from the host: \/: not an object \(null\)$/),
      expect.stringMatching(/message from the host: \/type: unknown type "mystery" \(expected start, cancel, input\)$/),
      expect.stringMatching(/malformed cancel message from the host: \/reason: Expected string$/),
      expect.stringMatching(/malformed input message from the host: \/nodeId: Expected string$/),
      expect.stringMatching(/malformed start message from the host: \/spec: Expected object$/),
    ]);
    // Once the run runs, the warning also reaches the host as a log of that run, which the bridge accepts.
    const logs = r.frames.filter((f) => (f as { type?: string }).type === 'log');
    expect(logs.map((l) => (l as { message: string }).message)).toEqual([expect.stringMatching(/^ignored a malformed input message/), expect.stringMatching(/^ignored a malformed start message/)]);
    for (const l of logs) expect(checkRunnerMessage('r-ok', l).ok).toBe(true);
  });

  it('a malformed start: the runner exits failed, naming the problem, under the run id it names', async () => {
    const r = runner();
    const bad = spec('r-bad') as unknown as { thread: Record<string, unknown> };
    bad.thread = { ...bad.thread, context: { messages: 'none' } };
    r.send({ type: 'start', spec: bad });
    await waitFor(() => r.exit(), 30_000, 'runner exit');
    expect(r.exit()).toMatchObject({ code: 1 });
    expect(r.stderr()).toMatch(/stepwise runner: the host's start message is malformed, so the run cannot start: \/spec\/thread\/context\/\w+: Expected/);
    expect(r.frames).toEqual([{ v: 1, type: 'log', runId: 'r-bad', level: 'error', message: expect.stringMatching(/^the host's start message is malformed/) }]);
  });
});
