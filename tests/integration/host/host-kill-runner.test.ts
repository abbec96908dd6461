/**
 * docs/architecture.md#processes-and-state: a run's agent-runner never outlives its host. The host core runs in its own
 * process (tests/support/host-child.ts, the real NodeSpawner forking the real runner, as the
 * web host and the CLI do); the test SIGKILLs that process mid-run and checks that the runner
 * is gone within a few seconds — and, with an HTTP provider, that the streaming request to
 * the provider was closed (no more tokens spent), instead of running on, reparented to PID 1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayJournal } from '../../../main/core/journal/journal-log';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, waitFor, words, writeThread } from '../../support/host-harness';
import { startSseServer, type SseServer } from '../../support/sse-server';
import { chatChunk, chatSse } from '../providers/fixtures';
import { cleanups } from '../../support/cleanups';

/** True while `pid` runs (a zombie waiting to be reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    if (fs.existsSync('/proc/self/stat')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killQuietly(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

interface Started {
  host: ChildProcess;
  runId: string;
  threadId: string;
  /** The run's agent-runner process. */
  pid: number;
}

const defer = cleanups('test');

/** Starts a host in its own process that runs `slow.json` of `home`; resolves with the run's ids. */
async function startHostWithRun(home: string): Promise<Started> {
  const host = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../support/host-child.ts')], {
    env: { ...process.env, STEPWISE_HOME: home, STEPWISE_RUNNER_ENTRY: bundledRunner() },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  host.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const runner: { pid?: number } = {};
  defer(() => {
    host.kill('SIGKILL');
    killQuietly(runner.pid);
  });
  const info = await waitFor<{ runId: string; threadId: string; pid: number }>(
    () => (out.includes('\n') ? JSON.parse(out.split('\n')[0]) : undefined),
    30_000,
    'the host child to start a run',
  );
  runner.pid = info.pid;
  expect(info.pid).toBeGreaterThan(0);
  return { host, ...info };
}

async function killHost(host: ChildProcess): Promise<void> {
  const gone = new Promise((r) => host.once('exit', r));
  host.kill('SIGKILL');
  await gone;
}

describe('killing the host', () => {
  it('ends a running scripted run: its agent-runner exits within seconds', async () => {
    const home = makeHome();
    // ~50 s of streaming: the runner would outlive the test by far if left alone.
    const thread = scriptedThread([{ text: words(3000) }], { tokensPerSecond: 60 });
    writeThread(home, 'slow.json', thread);
    const run = await startHostWithRun(home);
    // Mid-stream: a checkpoint of the run's journal holds streamed text.
    const file = path.join(home, 'runs', thread.id, `${run.runId}.jsonl`);
    await waitFor(() => {
      try {
        const rec = replayJournal(fs.readFileSync(file, 'utf8'))?.record();
        const text = (rec?.nodes.find((n) => n.kind === 'llm')?.output as { text?: string } | undefined)?.text;
        return rec?.status === 'running' && !!text;
      } catch {
        return false;
      }
    }, 30_000, 'streamed text in the run journal');
    expect(alive(run.pid)).toBe(true);

    await killHost(run.host);
    await waitFor(() => !alive(run.pid), 5_000, `the orphaned agent-runner (pid ${run.pid}) to exit`);
  }, 60_000);

  it('closes the provider stream of a run waiting on a real HTTP provider, and the runner exits', async () => {
    const server: SseServer = await startSseServer();
    defer(() => server.close());
    // The provider sends one chunk, then keeps the stream open as a slow model would.
    server.reply({ stream: [chatSse([chatChunk({ role: 'assistant', content: 'Let me think' })], false), { hang: true }] });
    const home = makeHome();
    fs.mkdirSync(path.join(home, 'settings'));
    fs.writeFileSync(
      path.join(home, 'settings', 'providers.json'),
      JSON.stringify({ providers: [{ id: 'local', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: 'sk-local-test-123456' }] }),
    );
    const thread: Thread = { ...scriptedThread([]), model: { provider: 'local', id: 'test-model', params: {} } };
    writeThread(home, 'slow.json', thread);
    const run = await startHostWithRun(home);
    await waitFor(() => server.requests.length > 0, 30_000, 'the provider request');
    const closed = server.clientClosed();
    expect(alive(run.pid)).toBe(true);

    await killHost(run.host);
    const within = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref());
    expect(await Promise.race([closed.then(() => 'closed' as const), within(5_000)])).toBe('closed');
    await waitFor(() => !alive(run.pid), 5_000, `the orphaned agent-runner (pid ${run.pid}) to exit`);
  }, 60_000);
});
