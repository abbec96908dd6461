/** When the host lets an open thread go (thread-holders.ts), with a real ThreadStore over real thread files. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ThreadStore } from './thread-store';
import { releaseIfUnheld, threadHeld, type ThreadHolders } from './thread-holders';
import { loadThreadFile, saveThreadFile } from '../threads/thread-file';
import { scriptedThread } from '../../../tests/support/threads';
import { makeHome } from '../../../tests/support/host-harness';

async function openThread() {
  const file = path.join(makeHome(), 'workspace', 't.json');
  const thread = scriptedThread([{ text: 'hi' }]);
  fs.writeFileSync(file, JSON.stringify(thread));
  const store = new ThreadStore({ io: { load: loadThreadFile, save: saveThreadFile }, debounceMs: 10_000 });
  await store.open(file);
  return { file, id: thread.id, store };
}

/** Holders with the given clients' open threads and live runs per thread. */
function holders(clients: string[][], live: Record<string, number> = {}): ThreadHolders {
  return {
    clients: new Map(clients.map((open, i) => [i, { openThreads: new Set(open) }])),
    runs: { liveRuns: (threadId) => Array.from({ length: live[threadId] ?? 0 }) },
  };
}

describe('thread holders', () => {
  it('a thread is held by any client that has it open, or by a live run of it', () => {
    expect(threadHeld('t1', holders([['t2'], ['t1']]))).toBe(true);
    expect(threadHeld('t1', holders([['t2']], { t1: 1 }))).toBe(true);
    expect(threadHeld('t1', holders([['t2']], { t2: 1 }))).toBe(false);
    expect(threadHeld('t1', holders([]))).toBe(false);
  });

  it('keeps a held thread open, with its unsaved edits', async () => {
    const { id, store } = await openThread();
    store.edit(id, 0, [{ op: 'replace', path: ['title'], value: 'edited' }], 'client:1');
    expect(await releaseIfUnheld(store, id, holders([[id]]))).toBe(false);
    expect(await releaseIfUnheld(store, id, holders([], { [id]: 1 }))).toBe(false);
    expect(store.get(id)).toMatchObject({ version: 1, thread: { title: 'edited' } });
  });

  it('saves and forgets a thread nobody holds: the next open reads the file', async () => {
    const { file, id, store } = await openThread();
    store.edit(id, 0, [{ op: 'replace', path: ['title'], value: 'edited' }], 'client:1');
    expect(await releaseIfUnheld(store, id, holders([['other']]))).toBe(true);
    expect(store.has(id)).toBe(false);
    expect((await loadThreadFile(file)).title).toBe('edited');
    expect((await store.open(file)).version).toBe(0);
  });
});
