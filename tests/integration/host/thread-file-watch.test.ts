/**
 * docs/architecture.md#edits-and-undo: an open thread's file edited outside Stepwise. A valid edit becomes a new version
 * (thread_patch, origin `file`); a broken file is reported and never saved over until it is
 * fixed; the store's own atomic saves are not taken for outside edits; releasing stops the watch.
 * Real thread files in a temp folder, real fs.watch.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ThreadStore } from '../../../main/core/store/thread-store';
import { loadThreadFile, saveThreadFile } from '../../../main/core/threads/thread-file';
import { createHostCore, type HostCore } from '../../../main/core/host-core';
import type { ThreadPatch } from '../../../shared/protocol/envelopes';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, userMessage } from '../../support/threads';
import { makeHome, RecordingClient, waitFor, writeThread } from '../../support/host-harness';

const stores: ThreadStore[] = [];
let core: HostCore | undefined;
afterEach(async () => {
  for (const s of stores.splice(0)) {
    await s.flush();
    s.unwatchAll();
  }
  await core?.close();
  core = undefined;
});

function setup() {
  const dir = makeHome();
  const file = path.join(dir, 'workspace', 't.json');
  const thread = scriptedThread([{ text: 'hi' }]);
  fs.writeFileSync(file, JSON.stringify(thread, null, 2));
  const patches: ThreadPatch[] = [];
  const problems: (string | undefined)[] = [];
  let saves = 0;
  let loads = 0;
  const store = new ThreadStore({
    io: { load: (f) => { loads++; return loadThreadFile(f); }, save: async (f, t) => { saves++; await saveThreadFile(f, t); } },
    debounceMs: 40,
    watch: { debounceMs: 20 },
    onPatch: (p) => patches.push(p),
    onFileProblem: (p) => problems.push(p.problem),
    log: () => {},
  });
  stores.push(store);
  return { file, thread, store, patches, problems, saves: () => saves, loads: () => loads };
}

const onDisk = (file: string): Thread => JSON.parse(fs.readFileSync(file, 'utf8')) as Thread;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Write as an editor that saves by renaming a new file over the old one. */
function replaceFile(file: string, text: string): void {
  const tmp = `${file}.swp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

describe('thread files edited outside Stepwise', () => {
  it('takes a valid outside edit as a new version, and later edits are saved on top of it', async () => {
    const { file, thread, store, patches } = setup();
    await store.open(file);
    const edited = { ...thread, title: 'renamed outside', context: { ...thread.context, systemPrompt: 'Edited on disk.' } };
    replaceFile(file, JSON.stringify(edited, null, 2));
    const patch = await waitFor(() => patches.find((p) => p.origin === 'file'), 3000, 'a file patch');
    expect(patch).toMatchObject({ threadId: thread.id, version: 1 });
    expect(patch.patches).toEqual(
      expect.arrayContaining([
        { op: 'replace', path: ['title'], value: 'renamed outside' },
        { op: 'replace', path: ['context', 'systemPrompt'], value: 'Edited on disk.' },
      ]),
    );
    expect(store.get(thread.id)).toMatchObject({ version: 1, thread: onDisk(file) });
    // An edit made at the old version is stale; one at the new version is saved with both changes.
    await expect(store.edit(thread.id, 0, [{ op: 'replace', path: ['title'], value: 'late' }], 'client:1')).rejects.toMatchObject({ code: 'version_mismatch' });
    expect(await store.edit(thread.id, 1, [{ op: 'replace', path: ['context', 'tools'], value: [] }, { op: 'replace', path: ['title'], value: 'both' }], 'client:1')).toEqual({ version: 2 });
    await store.flush();
    expect(onDisk(file)).toMatchObject({ title: 'both', context: { systemPrompt: 'Edited on disk.' } });
    expect(patches).toHaveLength(2);
  });

  it('an in-place write is seen too, and a window\'s unsaved edit elsewhere stays on top', async () => {
    const { file, thread, store, patches } = setup();
    await store.open(file);
    store.edit(thread.id, 0, [{ op: 'replace', path: ['title'], value: 'from the window' }], 'client:1');
    fs.writeFileSync(file, JSON.stringify({ ...thread, context: { ...thread.context, systemPrompt: 'outside' } }, null, 2));
    await store.flush(); // the save reads the file first: the outside edit is taken, not overwritten
    expect(patches.map((p) => p.origin)).toEqual(['client:1', 'file']);
    expect(onDisk(file)).toMatchObject({ title: 'from the window', context: { systemPrompt: 'outside' } });
    expect(store.get(thread.id).thread).toEqual(onDisk(file));
  });

  it('does not save over a file that no longer loads, reports it with line and column, and takes it once fixed', async () => {
    const { file, thread, store, patches, problems } = setup();
    await store.open(file);
    const broken = '{\n  "version": 1,\n  "id": oops\n}\n';
    fs.writeFileSync(file, broken);
    await waitFor(() => problems.length === 1, 3000, 'a problem report');
    expect(problems[0]).toContain(file);
    expect(problems[0]).toMatch(/line 3, column \d+/);
    // A window edits meanwhile: kept in memory, not written over the broken file.
    expect(await store.edit(thread.id, 0, [{ op: 'replace', path: ['title'], value: 'kept' }], 'client:1')).toEqual({ version: 1 });
    await sleep(150);
    await store.flush();
    expect(fs.readFileSync(file, 'utf8')).toBe(broken);
    // Fixed on disk: taken as a new version, the window's edit saved on top.
    replaceFile(file, JSON.stringify({ ...thread, context: { ...thread.context, systemPrompt: 'fixed' } }, null, 2));
    await waitFor(() => patches.some((p) => p.origin === 'file'), 3000, 'the fixed file');
    expect(problems).toEqual([problems[0], undefined]);
    expect(store.get(thread.id).version).toBe(2);
    await waitFor(() => onDisk(file).title === 'kept', 3000, 'the save after the fix');
    expect(onDisk(file).context.systemPrompt).toBe('fixed');
  });

  it('saves the edits held while the file was broken once it is put back exactly as it was', async () => {
    const { file, thread, store, problems } = setup();
    await store.open(file);
    const good = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, '{ "version": 1, ');
    await waitFor(() => problems.length === 1, 3000, 'a problem report');
    store.edit(thread.id, 0, [{ op: 'replace', path: ['title'], value: 'kept' }], 'client:1');
    await sleep(150);
    // An editor's undo: the file is the store's last copy again, byte for byte.
    replaceFile(file, good);
    await waitFor(() => problems.length === 2, 3000, 'the fix');
    // Nothing else happens in the app, yet the held edit is saved.
    await waitFor(() => onDisk(file).title === 'kept', 3000, 'the save of the held edit');
  });

  it('a file fixed with another message changed keeps the message typed into while it was broken (each message merged by its id)', async () => {
    const { file, store, problems } = setup();
    const thread = scriptedThread([{ text: 'hi' }], { messages: [userMessage('first', 'm1'), userMessage('second', 'm2'), userMessage('third', 'm3')] });
    fs.writeFileSync(file, JSON.stringify(thread, null, 2));
    await store.open(file);
    const good = onDisk(file);
    fs.writeFileSync(file, '{ "version": 1, "broken": ');
    await waitFor(() => problems.length === 1, 3000, 'a problem report');
    // Typed into the second message while the file is broken: held, not written.
    const typed = { type: 'text', text: 'second TWO' };
    expect(await store.edit(thread.id, 0, [{ op: 'replace', path: ['context', 'messages', 1, 'content', 0], value: typed }], 'client:1')).toEqual({ version: 1 });
    // Fixed outside: the last good content with the first message changed.
    const fixed = structuredClone(good);
    fixed.context.messages[0].content = [{ type: 'text', text: 'first OUTSIDE' }];
    replaceFile(file, JSON.stringify(fixed, null, 2));
    await waitFor(() => problems.length === 2, 3000, 'the fix');
    const texts = () => store.get(thread.id).thread.context.messages.map((m) => (m.content[0] as { text: string }).text);
    expect(texts()).toEqual(['first OUTSIDE', 'second TWO', 'third']);
    await waitFor(() => (onDisk(file).context.messages[1].content[0] as { text: string }).text === 'second TWO', 3000, 'the save of the held edit');
    expect(onDisk(file).context.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(['first OUTSIDE', 'second TWO', 'third']);
  });

  it('does not take its own saves for outside edits, and stops watching on release', async () => {
    const { file, thread, store, patches, saves, loads } = setup();
    await store.open(file);
    for (let i = 1; i <= 3; i++) {
      store.edit(thread.id, i - 1, [{ op: 'replace', path: ['context', 'systemPrompt'], value: `v${i}` }], 'client:1');
      await sleep(120); // each edit saved, and its write seen by the watcher
    }
    expect(saves()).toBe(3);
    // One read to open, then at most the watcher's look at each own write: a save itself does
    // not read the file when its stat is the one the store left.
    expect(loads()).toBeLessThanOrEqual(4);
    expect(patches.map((p) => p.origin)).toEqual(['client:1', 'client:1', 'client:1']);
    expect(store.get(thread.id).version).toBe(3);
    await store.release(thread.id);
    fs.writeFileSync(file, JSON.stringify({ ...thread, title: 'after close' }, null, 2));
    await sleep(150);
    expect(patches).toHaveLength(3);
    expect(store.has(thread.id)).toBe(false);
  });

  it('follows a thread file moved in the workspace', async () => {
    const { file, thread, store, patches, problems } = setup();
    await store.open(file);
    const moved = path.join(path.dirname(file), 'moved.json');
    fs.renameSync(file, moved);
    store.moved(thread.id, moved);
    await sleep(100);
    replaceFile(moved, JSON.stringify({ ...thread, title: 'edited after the move' }, null, 2));
    await waitFor(() => patches.find((p) => p.origin === 'file'), 3000, 'a file patch');
    expect(store.get(thread.id).thread.title).toBe('edited after the move');
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it('the host core pushes the file patch and a notice naming the broken file to windows that have it open, and one with the same key once it is fixed', async () => {
    const home = makeHome();
    const thread = scriptedThread([{ text: 'hi' }]);
    writeThread(home, 'w.json', thread);
    core = await createHostCore({ home, log: () => {}, saveDebounceMs: 40, watchThreadFiles: { debounceMs: 20 } });
    const client = new RecordingClient();
    const conn = core.connect(client.send);
    await conn.request('thread.open', { path: 'w.json' });
    const file = path.join(home, 'workspace', 'w.json');
    replaceFile(file, JSON.stringify({ ...thread, title: 'outside' }, null, 2));
    await waitFor(() => client.pushes.find((p) => p.type === 'thread_patch' && p.origin === 'file'), 3000, 'a file patch');
    fs.writeFileSync(file, '{ "version": 1,');
    const notice = await waitFor(() => client.pushes.find((p) => p.type === 'notice'), 3000, 'a notice');
    expect(notice).toMatchObject({ level: 'error', key: 'file:w.json', message: expect.stringMatching(/^w\.json: line 1, column \d+/) });
    // Fixed: a notice with the same key, which ends the error shown for the broken file.
    replaceFile(file, JSON.stringify({ ...thread, title: 'fixed' }, null, 2));
    const fixed = await waitFor(() => client.pushes.find((p) => p.type === 'notice' && p.level === 'info'), 3000, 'the notice of the fix');
    expect(fixed).toMatchObject({ key: 'file:w.json', message: 'w.json loads again; its changes were taken' });
    conn.close();
  });
});
