/**
 * docs/architecture.md#edits-and-undo: the ThreadStore's versions, version mismatches, schema checks, debounced atomic
 * saves, run results as one patch, and edits refused while a run runs. Real thread files
 * (main/core/threads/thread-file.ts) in a temp folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ThreadStore } from '../../../main/core/store/thread-store';
import { loadThreadFile, saveThreadFile } from '../../../main/core/threads/thread-file';
import type { ThreadPatch } from '../../../shared/protocol/envelopes';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread } from '../../support/threads';
import { makeHome } from '../../support/host-harness';

function setup(opts: { running?: () => boolean } = {}) {
  const dir = makeHome();
  const file = path.join(dir, 'workspace', 't.json');
  const thread = scriptedThread([{ text: 'hi' }]);
  fs.writeFileSync(file, JSON.stringify(thread));
  const patches: ThreadPatch[] = [];
  let saves = 0;
  const store = new ThreadStore({
    io: { load: loadThreadFile, save: async (f, t) => { saves++; await saveThreadFile(f, t); } },
    debounceMs: 60,
    isRunning: opts.running,
    onPatch: (p) => patches.push(p),
  });
  return { file, thread, store, patches, saves: () => saves };
}

const onDisk = (file: string): Thread => JSON.parse(fs.readFileSync(file, 'utf8')) as Thread;

describe('ThreadStore', () => {
  it('applies an edit resent with the same editId once, answering its first version (a reply lost with the connection)', async () => {
    const { file, thread, store, patches } = setup();
    await store.open(file);
    const remove = [{ op: 'remove' as const, path: ['context', 'messages', 0] }];
    const n = thread.context.messages.length;
    expect(await store.edit(thread.id, 0, remove, 'client:1', 'e-1')).toEqual({ version: 1 });
    // Another window edits; then the first window's resend arrives with its old base version.
    expect(await store.edit(thread.id, 1, [{ op: 'replace', path: ['title'], value: 'other' }], 'client:2', 'e-2')).toEqual({ version: 2 });
    expect(await store.edit(thread.id, 0, remove, 'client:1', 'e-1')).toEqual({ version: 1 });
    expect(store.get(thread.id).thread.context.messages).toHaveLength(n - 1);
    expect(patches.map((p) => p.version)).toEqual([1, 2]);
    // A new edit id with a stale base is refused as before.
    await expect(store.edit(thread.id, 0, remove, 'client:1', 'e-3')).rejects.toMatchObject({ code: 'version_mismatch' });
    await store.flush();
    expect(onDisk(file).context.messages).toHaveLength(n - 1);
  });

  it('bumps the version per edit, broadcasts the patches, and refuses a stale base version', async () => {
    const { file, thread, store, patches } = setup();
    const opened = await store.open(file);
    expect(opened.version).toBe(0);
    expect(await store.edit(thread.id, 0, [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'one' }], 'client:1')).toEqual({ version: 1 });
    expect(await store.edit(thread.id, 1, [{ op: 'replace', path: ['title'], value: 'renamed' }], 'client:2')).toEqual({ version: 2 });
    expect(patches.map((p) => [p.version, p.origin])).toEqual([[1, 'client:1'], [2, 'client:2']]);
    await expect(store.edit(thread.id, 1, [{ op: 'replace', path: ['title'], value: 'late' }], 'client:1')).rejects.toMatchObject({ code: 'version_mismatch' });
    expect(store.get(thread.id).thread.title).toBe('renamed');
    await store.flush();
  });

  it('rejects an edit that breaks the schema, naming where, and changes nothing', async () => {
    const { file, thread, store, patches } = setup();
    await store.open(file);
    let err: { code?: string; message?: string } = {};
    try {
      await store.edit(thread.id, 0, [{ op: 'replace', path: ['context', 'messages', 0, 'role'], value: 'robot' }], 'client:1');
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.code).toBe('invalid_edit');
    expect(err.message).toMatch(/\/context\/messages\/0/);
    await expect(store.edit(thread.id, 0, [{ op: 'replace', path: ['id'], value: 'other' }], 'client:1')).rejects.toThrow(/cannot be edited/);
    expect(store.get(thread.id).version).toBe(0);
    expect(patches).toHaveLength(0);
  });

  it('saves debounced and atomically: many quick edits, one write with the last state', async () => {
    const { file, thread, store, saves } = setup();
    await store.open(file);
    for (let i = 1; i <= 5; i++) store.edit(thread.id, i - 1, [{ op: 'replace', path: ['context', 'systemPrompt'], value: `v${i}` }], 'client:1');
    expect(onDisk(file).context.systemPrompt).toBe('You are a test.');
    await new Promise((r) => setTimeout(r, 200));
    expect(saves()).toBe(1);
    expect(onDisk(file).context.systemPrompt).toBe('v5');
    // No temp files left behind by the atomic writer.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['t.json']);
  });

  it('applies a run result (messages, tool outputs, run ref) as one patch with origin run:<id>', async () => {
    const { file, thread, store, patches } = setup();
    await store.open(file);
    const runRef = { id: 'run-1', startedAt: 1, endedAt: 2, status: 'completed' as const, mode: 'step' as const, preview: 'done' };
    const result = {
      messages: [
        { id: 'a1', role: 'assistant' as const, content: [{ type: 'text' as const, text: 'calling' }], toolCalls: [{ id: 'c1', name: 'get_sum', arguments: { a: 1, b: 2 } }] },
      ],
    };
    expect(store.applyRunResult(thread.id, result, runRef)).toEqual({ version: 1 });
    expect(patches).toHaveLength(1);
    expect(patches[0].origin).toBe('run:run-1');
    const doc = store.get(thread.id).thread;
    expect(doc.context.messages.map((m) => m.id)).toEqual([thread.context.messages[0].id, 'a1']);
    expect(doc.runRefs).toEqual([runRef]);
    // A tool step fills the call's output in place, again as one patch.
    const output = { content: [{ type: 'text' as const, text: '3' }], isError: false };
    store.applyRunResult(thread.id, { messages: [], toolOutputs: [{ messageId: 'a1', toolCallId: 'c1', output }] }, { ...runRef, id: 'run-2' });
    expect(patches).toHaveLength(2);
    const msg = store.get(thread.id).thread.context.messages[1];
    expect(msg.role === 'assistant' && msg.toolCalls?.[0].output).toEqual(output);
    await store.flush();
    expect(onDisk(file).runRefs.map((r) => r.id)).toEqual(['run-1', 'run-2']);
  });

  it('refuses edits while one of the thread\'s runs runs', async () => {
    let running = true;
    const { file, thread, store } = setup({ running: () => running });
    await store.open(file);
    await expect(store.edit(thread.id, 0, [{ op: 'replace', path: ['title'], value: 'x' }], 'client:1')).rejects.toMatchObject({ code: 'thread_running' });
    running = false;
    expect((await store.edit(thread.id, 0, [{ op: 'replace', path: ['title'], value: 'x' }], 'client:1')).version).toBe(1);
    await store.flush();
  });

  it('a thread opened again while it is being released stays open (a window reconnecting as the old connection closes)', async () => {
    const { file, thread, store } = setup();
    await store.open(file);
    store.edit(thread.id, 0, [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'kept' }], 'client:1');
    const releasing = store.release(thread.id); // the last holder left: save, then forget
    const reopened = await store.open(file); // the same window, on its new connection
    await releasing;
    expect(store.has(thread.id)).toBe(true);
    expect(reopened).toMatchObject({ version: 1 });
    expect(await store.edit(thread.id, 1, [{ op: 'replace', path: ['title'], value: 'still open' }], 'client:2')).toEqual({ version: 2 });
    expect(onDisk(file).context.systemPrompt).toBe('kept');
    await store.release(thread.id);
    expect(store.has(thread.id)).toBe(false);
  });
});
