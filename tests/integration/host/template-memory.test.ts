/**
 * A template that allocates without end ends only the template worker, never the process that
 * asked for the render (docs/architecture.md#templates). Driven through real processes:
 * `stepwise render`, `stepwise serve` (a preview, a run, then more requests on the same host),
 * and an agent tool's thread rendered by a runner. Before the worker was a process of its own,
 * each of these templates ended the whole process (V8's "Reached heap limit" or "invalid size
 * error" inside a worker thread aborts its process on Node 20).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Thread } from '../../../shared/thread/schema';
import type { HostResult } from '../../../shared/protocol/host-api';
import { scriptedThread, userMessage } from '../../support/threads';
import { runCliProcess } from '../../support/cli-process';
import { makeHome, writeThread } from '../../support/host-harness';
import { startServe } from '../../support/serve-process';
import { cleanups } from '../../support/cleanups';

const defer = cleanups('test');

/** Doubles a string to 2^25 characters, then makes a list of its characters and joins them: past the worker's 256 MB heap. */
const HEAP_BOMB = '{% set s = "x" %}{% for i in range(25) %}{% set s = s + s %}{% endfor %}{{ s | list | join(",") }}';
/** A list of 2^27 characters: past V8's own array size limit. */
const SIZE_BOMB = '{% set s = "x" %}{% for i in range(27) %}{% set s = s + s %}{% endfor %}{{ s | list | length }}';
const MEMORY = 'rendering used more than 256 MB of memory and was stopped';
/**
 * The heap bomb's bound: memory, or on a loaded machine the 2 s time budget first (the heap
 * fills by many allocations, which take wall-clock time); the size bomb is one allocation and
 * always stops on memory.
 */
const MEMORY_OR_TIME = /^systemPrompt: rendering (used more than 256 MB of memory|took longer than 2 s \(a loop too long\?\)) and was stopped$/;

function bombThread(systemPrompt: string): Thread {
  const t = scriptedThread([{ text: 'fine' }], { messages: [userMessage('Hi {{ who }}', 'u1')] });
  t.context.systemPrompt = systemPrompt;
  t.context.variables = { who: 'Ada' };
  return t;
}

describe('a template past the memory bound', () => {
  it('stepwise render exits 2 naming the place and the bound, for each bomb, and renders the next thread', async () => {
    const home = makeHome();
    const rendered = async (bomb: string) => {
      const file = path.join(home, 'bomb.json');
      fs.writeFileSync(file, JSON.stringify(bombThread(bomb)));
      return runCliProcess(['render', file, '--place', 'systemPrompt', '--home', home]);
    };
    expect(await rendered(SIZE_BOMB)).toEqual({ code: 2, stdout: '', stderr: `stepwise render: systemPrompt: ${MEMORY}\n` });
    const heap = await rendered(HEAP_BOMB);
    expect({ code: heap.code, stdout: heap.stdout }).toEqual({ code: 2, stdout: '' });
    expect(heap.stderr.replace(/^stepwise render: |\n$/g, '')).toMatch(MEMORY_OR_TIME);
    const fine = path.join(home, 'fine.json');
    fs.writeFileSync(fine, JSON.stringify(bombThread('You help {{ who }}.')));
    expect(await runCliProcess(['render', fine, '--place', 'systemPrompt', '--home', home])).toEqual({ code: 0, stdout: 'You help Ada.', stderr: '' });
  }, 120_000);

  it('stepwise serve: the preview and the run fail naming place and bound, the host stays up and renders and runs the next thread', async () => {
    const home = makeHome();
    const bomb = bombThread(SIZE_BOMB);
    const fine = bombThread('You help {{ who }}.');
    writeThread(home, 'bomb.json', bomb);
    writeThread(home, 'fine.json', fine);
    const host = await startServe(home);
    defer(() => host.stop());
    const { client } = host;
    await client.call('thread.open', { path: 'bomb.json' });
    const preview = await client.call<HostResult<'thread.render'>>('thread.render', { threadId: bomb.id });
    expect(preview.error).toEqual({ place: 'systemPrompt', message: `systemPrompt: ${MEMORY}` });
    await client.call('thread.edit', { threadId: bomb.id, baseVersion: 0, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: HEAP_BOMB }] });
    const err = await client.call('run.start', { threadId: bomb.id, mode: 'step' }).then(() => undefined, (e: Error & { code?: string }) => e);
    expect(err?.code).toBe('template_error');
    expect(err?.message).toMatch(MEMORY_OR_TIME);
    expect(host.alive()).toBe(true);
    // The same host answers, renders and runs the next thread.
    await client.call('thread.open', { path: 'fine.json' });
    const ok = await client.call<HostResult<'thread.render'>>('thread.render', { threadId: fine.id, place: 'systemPrompt' });
    expect(ok.places[0].text).toEqual(['You help Ada.']);
    await client.call('stream.subscribe', { threadId: fine.id });
    await client.call('run.start', { threadId: fine.id, mode: 'step' });
    await expect.poll(async () => (await client.call<{ thread: Thread }>('thread.open', { path: 'fine.json' })).thread.context.messages.at(-1)?.content, { timeout: 30_000 }).toEqual([{ type: 'text', text: 'fine' }]);
    expect(host.alive()).toBe(true);
  }, 120_000);

  it("a runner rendering an agent tool's thread: the tool call fails naming the bound, the run goes on, the host stays up", async () => {
    const home = makeHome();
    const main = scriptedThread([{ text: 'done' }], {
      tools: [{ type: 'agent', name: 'ask_helper', description: 'Asks the helper.', threadPath: 'helper.json', parameters: { type: 'object', properties: { input: { type: 'string' } } } }],
      messages: [userMessage('Go', 'u1'), { id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'ask_helper', arguments: { input: 'x' } }] }],
      title: 'main',
    });
    writeThread(home, 'main.json', main);
    writeThread(home, 'helper.json', bombThread(SIZE_BOMB));
    const host = await startServe(home);
    defer(() => host.stop());
    const { client } = host;
    await client.call('thread.open', { path: 'main.json' });
    await client.call('stream.subscribe', { threadId: main.id });
    await client.call('run.start', { threadId: main.id, mode: 'tool', toolCallIds: ['c1'] });
    const output = async () => (await client.call<{ thread: Thread }>('thread.open', { path: 'main.json' })).thread.context.messages[1];
    await expect.poll(async () => (await output()).role === 'assistant' && (await output() as { toolCalls?: { output?: unknown }[] }).toolCalls?.[0].output !== undefined, { timeout: 60_000 }).toBe(true);
    const call = ((await output()) as { toolCalls: { output: { isError?: boolean; content: { text?: string }[] } }[] }).toolCalls[0];
    expect(call.output.isError).toBe(true);
    expect(call.output.content[0].text).toBe(`Could not load the agent thread helper.json: systemPrompt: ${MEMORY}`);
    expect(host.alive()).toBe(true);
    expect((await client.call<unknown[]>('workspace.list', {})).length).toBeGreaterThan(0);
  }, 120_000);
});
