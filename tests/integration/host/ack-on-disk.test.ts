/**
 * Host writes other than `thread.edit` are on disk when they are answered (issue 29: nothing
 * acknowledged is lost to a kill -9). Each test copies the home synchronously the moment an
 * answer arrives — what a SIGKILL at that instant would leave, since nothing of the host runs
 * in between — puts that copy back in the home's place once the host is closed, and starts a
 * real host core on it, which must show the write.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostCore, type HostCoreOptions } from '../../../main/core/host-core';
import { loadThreadFile, saveThreadFile } from '../../../main/core/threads/thread-file';
import type { RunRef, Thread } from '../../../shared/thread/schema';
import { hostCores, makeHome, waitFor, words, writeThread } from '../../support/host-harness';
import { bundledRunner } from '../../support/runner-bundle';
import { snapshotDir } from '../../support/disk-snapshot';
import { scriptedThread } from '../../support/threads';

const start = hostCores();

/** A host core on `home` with a connection; `kill()` (called the moment an answer arrives) leaves the home as a SIGKILL then would. */
async function host(home: string, options: Omit<HostCoreOptions, 'home'> = {}) {
  const core = await createHostCore({ home, runnerEntry: bundledRunner(), log: () => {}, ...options });
  let copy: string | undefined;
  /** Copies the home synchronously (nothing of the host runs meanwhile): the disk of this instant. */
  const snapshot = () => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-killed-'));
    snapshotDir(home, copy, ['workspace']);
  };
  return {
    conn: core.connect(() => {}),
    snapshot,
    /** Closes the host and puts the snapshot (taken now unless taken before) in the home's place: the next start sees that disk. */
    kill: async () => {
      if (!copy) snapshot();
      await core.close();
      fs.rmSync(home, { recursive: true, force: true });
      fs.renameSync(copy!, home);
    },
  };
}

/** A host core started on `home` after the "kill", with a connection. */
async function restart(home: string) {
  const core = await start({ home, runnerEntry: bundledRunner() });
  return core.connect(() => {});
}

describe('answered host writes are on disk', () => {
  it('run.start: a run answered is on disk, and after a kill it is listed, interrupted', async () => {
    const home = makeHome();
    const thread = scriptedThread([{ text: words(300) }], { tokensPerSecond: 5 });
    writeThread(home, 'slow.json', thread);
    const { conn, kill } = await host(home);
    await conn.request('thread.open', { path: 'slow.json' });
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    await kill();

    const after = await restart(home);
    await after.request('thread.open', { path: 'slow.json' });
    const listed = (await after.request('run.list', { threadId: thread.id })) as RunRef[];
    expect(listed.map((r) => [r.id, r.status])).toEqual([[runId, 'interrupted']]);
  }, 60_000);

  it('run.delete: a run answered as deleted stays deleted after a kill (its ref is not back on the thread)', async () => {
    const home = makeHome();
    const thread = scriptedThread([{ text: 'done' }]);
    writeThread(home, 't.json', thread);
    const { conn, kill } = await host(home);
    await conn.request('thread.open', { path: 't.json' });
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    const file = path.join(home, 'workspace', 't.json');
    await waitFor(() => (JSON.parse(fs.readFileSync(file, 'utf8')) as Thread).runRefs.some((r) => r.id === runId), 30_000, 'the run ref saved');
    await waitFor(() => fs.existsSync(path.join(home, 'runs', thread.id, `${runId}.json`)), 30_000, 'the run file');
    await conn.request('run.delete', { threadId: thread.id, runId });
    await kill();

    const after = await restart(home);
    const opened = (await after.request('thread.open', { path: 't.json' })) as { thread: Thread };
    expect(opened.thread.runRefs.map((r) => r.id)).toEqual([]);
    expect(await after.request('run.list', { threadId: thread.id })).toEqual([]);
  }, 60_000);

  it('workspace.rename of an open thread with edits not saved yet: a kill while the file is renamed keeps the edits', async () => {
    const home = makeHome();
    const thread = scriptedThread([{ text: 'hi' }], { title: 'draft' });
    writeThread(home, 'draft.json', thread);
    // The kill lands while the rename is under way: after the renamed file is written with its
    // new title, when the store first reads it back (its edit log not updated yet).
    let armed = false;
    const threadIO = {
      load: (file: string) => {
        if (armed) {
          armed = false;
          h.snapshot();
        }
        return loadThreadFile(file);
      },
      save: saveThreadFile,
    };
    const h = await host(home, { saveDebounceMs: 60_000, threadIO });
    const { version } = (await h.conn.request('thread.open', { path: 'draft.json' })) as { version: number };
    await h.conn.request('thread.edit', { threadId: thread.id, baseVersion: version, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'typed before the rename' }] });
    armed = true;
    await h.conn.request('workspace.rename', { path: 'draft.json', title: 'Renamed' });
    expect(armed).toBe(false);
    await h.kill();

    const after = await restart(home);
    const entries = (await after.request('workspace.list', {})) as { path: string }[];
    const name = entries.map((e) => e.path).find((p) => p.endsWith('.json'))!;
    const opened = (await after.request('thread.open', { path: name })) as { thread: Thread; notices?: unknown };
    expect(opened.thread.context.systemPrompt).toBe('typed before the rename');
    expect(fs.readdirSync(path.join(home, 'edits')).filter((n) => n.endsWith('.jsonl'))).toEqual([]);
  }, 60_000);
});
