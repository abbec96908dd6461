/**
 * docs/architecture.md#run-journal: a host killed mid-run (the host core in its own process, SIGKILL) leaves
 * its run file `running`; the next host start repairs it: open nodes `interrupted`, the
 * partial output kept, the run `interrupted`. When the thread is next opened, its run ref and
 * the partial reply (marked interrupted, as a cut stream leaves it) go onto it once, on top of
 * edits made to the file meanwhile.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostCore } from '../../../main/core/host-core';
import type { RunRecord } from '../../../shared/protocol/host-api';
import { replayJournal } from '../../../main/core/journal/journal-log';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, readThread, waitFor, words, writeThread } from '../../support/host-harness';

/** The run as its files hold it: its run file, or while it runs (or was left open), its journal. */
function readRun(file: string): RunRecord | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as RunRecord;
  } catch {}
  try {
    return replayJournal(fs.readFileSync(`${file}l`, 'utf8'))?.record();
  } catch {
    return undefined;
  }
}

describe('host crash', () => {
  it('repairs the journal of a run whose host was killed', async () => {
    const home = makeHome();
    const text = words(400);
    const thread = scriptedThread([{ thinking: 'Counting words.', text }], { tokensPerSecond: 60 });
    writeThread(home, 'slow.json', thread);
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../support/host-child.ts')], {
      env: { ...process.env, STEPWISE_HOME: home, STEPWISE_RUNNER_ENTRY: bundledRunner() },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    let info: { runId: string; threadId: string; pid: number } | undefined;
    try {
      info = await waitFor(() => (out.includes('\n') ? JSON.parse(out.split('\n')[0]) : undefined), 30_000, 'host child started a run');
      const file = path.join(home, 'runs', thread.id, `${info!.runId}.json`);
      // Wait for a checkpoint that holds streamed text.
      const partial = await waitFor(() => {
        const rec = readRun(file);
        const llm = rec?.nodes.find((n) => n.kind === 'llm');
        const t = (llm?.output as { text?: string } | undefined)?.text;
        return rec?.status === 'running' && t && t.length > 10 ? t : undefined;
      }, 30_000, 'a checkpoint with partial text');
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      // The orphaned runner is stopped too, as a machine reboot would.
      try {
        process.kill(info!.pid, 'SIGKILL');
      } catch {}
      const stale = readRun(file)!;
      expect(stale.status).toBe('running');
      // Edited outside Stepwise before the next start: the edit stays.
      const edited = { ...readThread(home, 'slow.json'), title: 'edited after the crash' };
      writeThread(home, 'slow.json', edited);

      const core = await createHostCore({ home, runnerEntry: bundledRunner(), log: () => {} });
      try {
        expect(core.repaired).toEqual([info!.runId]);
        // The journal became the run file.
        expect(fs.existsSync(`${file}l`)).toBe(false);
        const rec = readRun(file)!;
        expect(rec.status).toBe('interrupted');
        expect(rec.endedAt).toBeGreaterThan(0);
        const llm = rec.nodes.find((n) => n.kind === 'llm')!;
        expect(llm.status).toBe('interrupted');
        const kept = (llm.output as { text: string }).text;
        expect(kept.startsWith(partial)).toBe(true);
        expect(text.startsWith(kept)).toBe(true);
        expect(rec.nodes.some((n) => n.status === 'running' || n.status === 'pending')).toBe(false);
        // Listed and readable through the API like any finished run.
        const conn = core.connect(() => {});
        const runs = (await conn.request('run.list', { threadId: thread.id })) as { id: string; status: string }[];
        expect(runs).toEqual([expect.objectContaining({ id: info!.runId, status: 'interrupted' })]);

        // The run file holds what the run adds to the thread until the thread is opened.
        expect(rec.resultPending).toBe(true);
        const reply = {
          role: 'assistant',
          content: [{ type: 'thinking', thinking: 'Counting words.' }, { type: 'text', text: kept }],
          stopReason: 'error',
          errorMessage: expect.stringMatching(/interrupted: Stepwise stopped .*partial reply is kept/),
        };
        expect(rec.messages).toEqual([expect.objectContaining(reply)]);
        const opened = (await conn.request('thread.open', { path: 'slow.json' })) as { thread: Thread; version: number };
        expect(opened.thread.title).toBe('edited after the crash');
        expect(opened.thread.context.messages).toEqual([...thread.context.messages, expect.objectContaining(reply)]);
        expect(opened.thread.runRefs).toEqual([expect.objectContaining({ id: info!.runId, status: 'interrupted', mode: 'step' })]);
        expect(opened.version).toBe(1);
        expect(readRun(file)!.resultPending).toBeUndefined();
        await core.threads.flush();
        expect(readThread(home, 'slow.json')).toEqual(opened.thread);
      } finally {
        await core.close();
      }

      // Another start and open change nothing: the result went onto the thread once.
      const again = await createHostCore({ home, runnerEntry: bundledRunner(), log: () => {} });
      try {
        expect(again.repaired).toEqual([]);
        const opened = (await again.connect(() => {}).request('thread.open', { path: 'slow.json' })) as { thread: Thread; version: number };
        expect(opened.version).toBe(0);
        expect(opened.thread.context.messages).toHaveLength(thread.context.messages.length + 1);
        expect(opened.thread.runRefs).toHaveLength(1);
      } finally {
        await again.close();
      }
    } finally {
      child.kill('SIGKILL');
      if (info) {
        try {
          process.kill(info.pid, 'SIGKILL');
        } catch {}
      }
    }
  }, 60_000);
});
