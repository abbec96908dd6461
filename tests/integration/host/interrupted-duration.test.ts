/**
 * An interrupted run lasts until its last sign of life, not until someone noticed: a run whose
 * runner died ~7 s in shows ~7 s in run history and on its run node, whether the host saw the
 * death (it was alive) or the next host start repaired the run file half a minute later.
 * The runner is a fake process link that posts what a runner would, at set (fake) times.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHostCore, type HostCore } from '../../../main/core/host-core';
import type { ChildExit, ChildFrame, ChildLink, ProcessSpawner } from '../../../main/core/process/types';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { RunRef } from '../../../shared/thread/schema';
import { interruptedAt } from '../../../main/core/journal/run-files';
import { replayJournal } from '../../../main/core/journal/journal-log';
import { scriptedThread } from '../../support/threads';
import { makeHome, waitFor, writeThread } from '../../support/host-harness';

/** A runner process the test drives: `post` is the runner speaking, `die` its death. */
class FakeRunner implements ChildLink {
  readonly pid = 4242;
  private readonly frames = new Set<(f: ChildFrame) => void>();
  private readonly exits = new Set<(e: ChildExit) => void>();
  private gone = false;
  send(): void {}
  onFrame(l: (f: ChildFrame) => void) {
    this.frames.add(l);
    return () => this.frames.delete(l);
  }
  onExit(l: (e: ChildExit) => void) {
    this.exits.add(l);
    return () => this.exits.delete(l);
  }
  onStderr() {
    return () => {};
  }
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.die(signal);
  }
  post(msg: unknown): void {
    for (const l of this.frames) l({ ch: 'run', msg });
  }
  die(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.gone) return;
    this.gone = true;
    for (const l of this.exits) l({ code: null, signal });
  }
}

const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const at = (ms: number) => vi.setSystemTime(T0 + ms);

/** A host on `home` whose runs are FakeRunners; starts one step run of `slow.json`. */
async function hostWithRun(home: string) {
  const runners: FakeRunner[] = [];
  const spawner: ProcessSpawner = { spawn: () => (runners.push(new FakeRunner()), runners.at(-1)!) };
  const core = await createHostCore({ home, spawner, runnerEntry: 'fake-runner.js', log: () => {} });
  const conn = core.connect(() => {});
  const opened = (await conn.request('thread.open', { path: 'slow.json' })) as { thread: { id: string } };
  const threadId = opened.thread.id;
  const { runId } = (await conn.request('run.start', { threadId, mode: 'step' })) as { runId: string };
  const runner = runners[0];
  // The runner streams for 7 s: run and llm nodes at once, a token every second.
  const node = (id: string, kind: 'run' | 'llm', startedAt: number, parentId?: string) => ({ id, runId, kind, name: kind, status: 'running', startedAt, ...(parentId ? { parentId } : {}) });
  runner.post({ v: 1, type: 'tree_update', runId, nodes: [node('root', 'run', T0), node('llm', 'llm', T0 + 20, 'root')] });
  for (let s = 1; s <= 7; s++) {
    at(s * 1000);
    runner.post({ v: 1, type: 'llm_delta', runId, nodeId: 'llm', channel: 'text', index: 0, delta: `w${s} `, seq: s });
  }
  return { core, conn, runner, runId, threadId, file: path.join(home, 'runs', threadId, `${runId}.json`) };
}

/** The run as its files hold it: its run file, or while it runs (or was left open), its journal. */
const readRun = (file: string): RunRecord | undefined => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as RunRecord;
  } catch {}
  try {
    return replayJournal(fs.readFileSync(`${file}l`, 'utf8'))?.record();
  } catch {
    return undefined;
  }
};

describe('the end of an interrupted run', () => {
  let home: string;
  const cores: HostCore[] = [];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
    home = makeHome();
    writeThread(home, 'slow.json', scriptedThread([{ text: 'w1 w2 w3 w4 w5 w6 w7 w8 w9' }], { title: 'slow' }));
  });
  afterEach(() => {
    vi.useRealTimers();
    cores.length = 0;
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('a host that died with the run is repaired at the last event it heard, not at the next start', async () => {
    const first = await hostWithRun(home);
    // The last checkpoint is on disk; then the host and its runner die together (no close).
    await waitFor(() => readRun(first.file)?.lastEventAt === T0 + 7000, 5000, 'the checkpoint of the last delta');
    expect(readRun(first.file)!.status).toBe('running');

    at(38_700); // the host is started again half a minute later
    const core = await createHostCore({ home, runnerEntry: 'fake-runner.js', log: () => {} });
    cores.push(core);
    expect(core.repaired).toEqual([first.runId]);
    const conn = core.connect(() => {});
    const refs = (await conn.request('run.list', { threadId: first.threadId })) as RunRef[];
    expect(refs).toEqual([expect.objectContaining({ id: first.runId, status: 'interrupted', startedAt: T0, endedAt: T0 + 7000 })]);
    const rec = (await conn.request('run.get', { threadId: first.threadId, runId: first.runId })) as RunRecord;
    const root = rec.nodes.find((n) => n.kind === 'run')!;
    const llm = rec.nodes.find((n) => n.kind === 'llm')!;
    // The execution tree's durations: 7 s for the run, 6.98 s for the LLM call, with its text.
    expect([root.status, root.endedAt! - root.startedAt]).toEqual(['interrupted', 7000]);
    expect([llm.status, llm.endedAt! - llm.startedAt]).toEqual(['interrupted', 6980]);
    expect((llm.output as { text: string }).text).toBe('w1 w2 w3 w4 w5 w6 w7 ');
    expect(rec.endedAt).toBe(T0 + 7000);
  });

  it('a runner that died while the host was up ends when the host noticed it', async () => {
    const { core, conn, runner, runId, threadId } = await hostWithRun(home);
    cores.push(core);
    at(7_150);
    runner.die('SIGKILL');
    await core.bridge.idle();
    at(38_700); // looking at it later changes nothing
    const refs = (await conn.request('run.list', { threadId })) as RunRef[];
    expect(refs).toEqual([expect.objectContaining({ id: runId, status: 'interrupted', startedAt: T0, endedAt: T0 + 7150 })]);
    const rec = (await conn.request('run.get', { threadId, runId })) as RunRecord;
    const root = rec.nodes.find((n) => n.kind === 'run')!;
    expect(root.endedAt! - root.startedAt).toBe(7150);
    expect(rec.lastEventAt).toBe(T0 + 7150);
  });

  it('a run file written before lastEventAt existed ends at its last checkpoint (the file time)', () => {
    const rec = { startedAt: T0, nodes: [{ id: 'root', runId: 'r', kind: 'run' as const, name: 'run', status: 'running' as const, startedAt: T0 }] };
    expect(interruptedAt(rec, T0 + 5000, T0 + 60_000)).toBe(T0 + 5000);
    // Never before a time a node recorded, never after now.
    expect(interruptedAt({ ...rec, nodes: [...rec.nodes, { ...rec.nodes[0], id: 'x', endedAt: T0 + 6000 }] }, T0 + 5000, T0 + 60_000)).toBe(T0 + 6000);
    expect(interruptedAt({ ...rec, lastEventAt: T0 + 9000 }, T0 + 9100, T0 + 8000)).toBe(T0 + 8000);
  });
});
