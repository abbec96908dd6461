/**
 * The host core's `thread.edit` as a window drives it: a patch whose path does not exist
 * (`remove`/`replace` of a missing message index or key, `add` past the end) is refused with
 * an error naming the path, and the version stays; a thread that repeats message or tool call
 * ids opens read-only (edits and runs refused, naming the ids) until one edit gives the repeats
 * new ids, and that edit can be undone; an edit that would create a repeated id is refused,
 * naming the id and where it would be used. Real thread files, the real host core and runner.
 */
import { describe, expect, it } from 'vitest';
import { enablePatches, produceWithPatches, type Patch } from 'immer';
import type { Thread } from '../../../shared/thread/schema';
import { giveDuplicatesNewIds } from '../../../shared/thread/ids';
import { scriptedThread, userMessage } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, readThread, RecordingClient, waitFor, rejection, hostCores } from '../../support/host-harness';

enablePatches();

const startCore = hostCores();

async function openCore(thread: Thread) {
  const home = makeHome({ 't.json': thread });
  const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 10 });
  const client = new RecordingClient();
  const conn = core.connect(client.send);
  const opened = (await conn.request('thread.open', { path: 't.json' })) as { thread: Thread; version: number };
  const edit = (baseVersion: number, patches: Patch[]) => conn.request('thread.edit', { threadId: thread.id, baseVersion, patches });
  const patchesSeen = () => client.pushes.filter((p) => p.type === 'thread_patch').length;
  return { home, core, conn, client, opened, edit, patchesSeen };
}

describe('thread.edit refuses a patch whose path does not exist', () => {
  it('remove, replace and add on a message index that is not there: refused naming the path, no version bump, nothing broadcast', async () => {
    const thread = scriptedThread([], { messages: [userMessage('one', 'm1'), userMessage('two', 'm2')] });
    const { home, core, edit, patchesSeen, conn } = await openCore(thread);
    const msg = userMessage('three', 'm3');
    const cases: [Patch[], RegExp][] = [
      [[{ op: 'remove', path: ['context', 'messages', 5] }], /patches\[0\] \(remove \/context\/messages\/5\): there is no item 5: \/context\/messages has 2 items/],
      [[{ op: 'remove', path: ['context', 'messages', 2] }], /\(remove \/context\/messages\/2\): there is no item 2/],
      // Immer would remove message 0 for a key that is no index.
      [[{ op: 'remove', path: ['context', 'messages', 'x'] }], /\(remove \/context\/messages\/x\): "x" is not an index of the array \/context\/messages/],
      // Immer would append at the end for a replace one past it, and pad with holes further on.
      [[{ op: 'replace', path: ['context', 'messages', 2], value: msg }], /\(replace \/context\/messages\/2\): there is no item 2/],
      [[{ op: 'replace', path: ['context', 'messages', 2, 'content', 0, 'text'], value: 'x' }], /\(replace \/context\/messages\/2\/content\/0\/text\): there is no item 2: \/context\/messages has 2 items/],
      // Immer would append for an add past the end.
      [[{ op: 'add', path: ['context', 'messages', 3], value: msg }], /\(add \/context\/messages\/3\): there is no item 3/],
      // Immer would create a key a replace names.
      [[{ op: 'replace', path: ['context', 'variables'], value: { a: 'b' } }], /\(replace \/context\/variables\): there is no "variables" in \/context/],
      [[{ op: 'replace', path: ['context', 'messages', 0, 'content', 'length'], value: 0 }], /"length" is not an index/],
      // The second patch of a batch is checked against what the first left: nothing of the batch applies.
      [[{ op: 'remove', path: ['context', 'messages', 1] }, { op: 'remove', path: ['context', 'messages', 1] }], /patches\[1\] \(remove \/context\/messages\/1\): there is no item 1: \/context\/messages has 1 item/],
    ];
    for (const [patches, why] of cases) {
      const err = await rejection(edit(0, patches));
      expect(err.code).toBe('invalid_edit');
      expect(err.message).toMatch(why);
      expect(err.message).toMatch(/nothing was changed/);
    }
    expect(patchesSeen()).toBe(0);
    // The version did not move: an edit at version 0 still applies, and paths that exist work.
    expect(await edit(0, [{ op: 'add', path: ['context', 'messages', 2], value: msg }])).toEqual({ version: 1 });
    expect(await edit(1, [{ op: 'remove', path: ['context', 'messages', 0] }, { op: 'replace', path: ['context', 'messages', 0, 'content', 0, 'text'], value: 'TWO' }])).toEqual({ version: 2 });
    expect(await edit(2, [{ op: 'add', path: ['context', 'variables'], value: { a: 'b' } }])).toEqual({ version: 3 });
    await core.threads.flush();
    const saved = readThread(home, 't.json');
    expect(saved.context.messages.map((m) => [m.id, (m.content[0] as { text: string }).text])).toEqual([['m2', 'TWO'], ['m3', 'three']]);
    expect(((await conn.request('thread.open', { path: 't.json' })) as { version: number }).version).toBe(3);
  });
});

describe('thread.edit refuses a patch that would create a repeated id', () => {
  it('a message id, a tool call id, an id renamed onto another: refused naming the id and pointers, nothing changed', async () => {
    const call = (id: string) => ({ id, name: 'f', arguments: {} });
    const thread = scriptedThread([], { messages: [userMessage('one', 'm1'), { id: 'a1', role: 'assistant', content: [], toolCalls: [call('call_1')] }] });
    const { home, core, edit, patchesSeen } = await openCore(thread);
    const cases: [Patch[], string][] = [
      [[{ op: 'add', path: ['context', 'messages', 2], value: userMessage('pasted', 'm1') }], 'message id "m1" at /context/messages/0/id and /context/messages/2/id'],
      [[{ op: 'replace', path: ['context', 'messages', 1, 'id'], value: 'm1' }], 'message id "m1" at /context/messages/0/id and /context/messages/1/id'],
      [[{ op: 'add', path: ['context', 'messages', 1, 'toolCalls', 1], value: call('call_1') }], 'tool call id "call_1" at /context/messages/1/toolCalls/0/id and /context/messages/1/toolCalls/1/id'],
      [
        [{ op: 'add', path: ['context', 'messages', 2], value: { id: 'a2', role: 'assistant', content: [], toolCalls: [call('call_1')] } }],
        'tool call id "call_1" at /context/messages/1/toolCalls/0/id and /context/messages/2/toolCalls/0/id',
      ],
    ];
    for (const [patches, named] of cases) {
      const err = await rejection(edit(0, patches));
      expect(err.code).toBe('duplicate_ids');
      expect(err.message).toBe(`the edit would repeat ${named} in thread ${thread.id}; ids must be unique in a thread, so nothing was changed`);
    }
    expect(patchesSeen()).toBe(0);
    // The version did not move: an edit at version 0 still applies, and a fresh id is fine.
    expect(await edit(0, [{ op: 'add', path: ['context', 'messages', 2], value: userMessage('pasted', 'm2') }])).toEqual({ version: 1 });
    await core.threads.flush();
    expect(readThread(home, 't.json').context.messages.map((m) => m.id)).toEqual(['m1', 'a1', 'm2']);
  });
});

describe('a thread that repeats ids', () => {
  /** m1 twice; call_0 twice, each with its result (what a copy-paste or an id-reusing server leaves). The script's first two replies stand for the two assistant messages. */
  function repeating(): Thread {
    const t = scriptedThread([{ text: 'one' }, { text: 'two' }, { text: 'after the repair' }], { messages: [userMessage('first', 'm1'), userMessage('pasted copy', 'm1')] });
    t.context.messages.push(
      { id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'call_0', name: 'f', arguments: { n: 1 }, output: { content: [{ type: 'text', text: 'ONE' }], isError: false } }] },
      { id: 'u2', role: 'user', content: [{ type: 'text', text: 'again' }] },
      { id: 'a2', role: 'assistant', content: [], toolCalls: [{ id: 'call_0', name: 'f', arguments: { n: 2 }, output: { content: [{ type: 'text', text: 'TWO' }], isError: false } }] },
    );
    return t;
  }

  it('opens, refuses edits and runs naming the ids, takes the repair as one undoable edit, then runs', async () => {
    const thread = repeating();
    const { home, core, opened, edit, conn, client } = await openCore(thread);
    expect(opened.thread.context.messages.map((m) => m.id)).toEqual(['m1', 'm1', 'a1', 'u2', 'a2']); // loaded as it is: nothing lost

    const refused = await rejection(edit(0, [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'x' }]));
    expect(refused.code).toBe('duplicate_ids');
    expect(refused.message).toContain('message id "m1" at /context/messages/0/id and /context/messages/1/id');
    expect(refused.message).toContain('tool call id "call_0" at /context/messages/2/toolCalls/0/id and /context/messages/4/toolCalls/0/id');
    const run = await rejection(conn.request('run.start', { threadId: thread.id, mode: 'step' }));
    expect(run.code).toBe('duplicate_ids');
    expect(run.message).toContain('message id "m1"');

    // The playground's "Give duplicates new ids": one edit made with Immer like any other.
    const [fixed, forward, inverse] = produceWithPatches(opened.thread, (d) => void giveDuplicatesNewIds(d as Thread));
    expect(await edit(0, forward)).toEqual({ version: 1 });
    expect(fixed.context.messages.map((m) => m.id)).toEqual(['m1', 'm1-2', 'a1', 'u2', 'a2']);
    // The later call got the new id and kept its own arguments and result.
    expect(fixed.context.messages[4]).toMatchObject({ toolCalls: [{ id: 'call_0-2', arguments: { n: 2 }, output: { content: [{ text: 'TWO' }] } }] });
    expect(fixed.context.messages[2]).toMatchObject({ toolCalls: [{ id: 'call_0', arguments: { n: 1 }, output: { content: [{ text: 'ONE' }] } }] });

    // A repeat the file did not have is refused even now.
    const other = await rejection(edit(1, [{ op: 'replace', path: ['context', 'messages', 3, 'id'], value: 'a1' }]));
    expect(other.message).toBe(`the edit would repeat message id "a1" at /context/messages/2/id and /context/messages/3/id in thread ${thread.id}; ids must be unique in a thread, so nothing was changed`);
    // Undo is an ordinary edit too: the repeats the file had come back, and with them the read-only state.
    expect(await edit(1, inverse)).toEqual({ version: 2 });
    expect((await rejection(edit(2, [{ op: 'replace', path: ['title'], value: 'x' }]))).code).toBe('duplicate_ids');
    expect(await edit(2, forward)).toEqual({ version: 3 }); // redo

    await core.threads.flush();
    expect(readThread(home, 't.json').context.messages.map((m) => m.id)).toEqual(['m1', 'm1-2', 'a1', 'u2', 'a2']);
    await conn.request('stream.subscribe', {});
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    await waitFor(() => client.ended.get(runId), 30_000, 'run end');
    expect(client.ended.get(runId)).toBe('completed');
    await core.threads.flush();
    expect(readThread(home, 't.json').context.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'after the repair' }] });
  });
});
