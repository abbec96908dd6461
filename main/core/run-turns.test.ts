import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/thread/messages';
import type { RunRef, Thread } from '../../shared/thread/schema';
import { scriptedThread, userMessage } from '../../tests/support/threads';
import { tempFolder } from '../../tests/support/temp-folder';
import { runFile } from './journal/journal';
import { continuedMessage, turnOfRun } from './run-turns';

const home = tempFolder('stepwise-turns-', 'test');

const ask = userMessage('What is 17 + 25?');
const calls = (withOutput: boolean): Message => ({
  id: 'msg-a1',
  role: 'assistant',
  content: [{ type: 'text', text: 'Adding.' }],
  toolCalls: [{ id: 'call-1', name: 'get_sum', arguments: { a: 17, b: 25 }, ...(withOutput ? { output: { content: [{ type: 'text', text: '42' }] } } : {}) }],
} as Message);

async function writeRun(thread: Thread, runId: string, messages: Message[]): Promise<void> {
  const file = runFile(home(), thread.id, runId);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ runId, threadId: thread.id, mode: 'step', status: 'completed', startedAt: 1, nodes: [], records: [], messages }));
}

const ref = (id: string, mode: RunRef['mode'], turn?: string): RunRef => ({ id, startedAt: 1, status: 'completed', mode, ...(turn ? { turn } : {}) });

describe('turnOfRun (issue 30 item 2: a turn\'s tool runs belong to the turn)', () => {
  it('puts the tool run and the continuing model run in the turn of the model run that made the calls', async () => {
    const thread = scriptedThread([], { messages: [ask, calls(false)] });
    await writeRun(thread, 'run-1', [calls(false)]);
    thread.runRefs = [ref('run-1', 'step')];
    expect(await turnOfRun(home(), thread, 'tool', ['call-1'])).toBe('run-1');

    // The tool run filled the result; Continue answers it.
    const answered = { ...thread, context: { ...thread.context, messages: [ask, calls(true)] }, runRefs: [ref('run-1', 'step'), ref('run-2', 'tool', 'run-1')] };
    await writeRun(thread, 'run-2', []);
    expect(await turnOfRun(home(), answered, 'step')).toBe('run-1');
  });

  it('starts a new turn for a user message, and for calls no run of the newest turn made', async () => {
    const thread = scriptedThread([], { messages: [ask] });
    thread.runRefs = [ref('run-1', 'step')];
    await writeRun(thread, 'run-1', [calls(false)]);
    expect(await turnOfRun(home(), thread, 'step')).toBeUndefined();

    // A call typed by hand (no run added its message).
    const typed = { ...thread, context: { ...thread.context, messages: [ask, { ...calls(false), id: 'msg-typed' }] } };
    expect(await turnOfRun(home(), typed, 'tool', ['call-1'])).toBeUndefined();
    // No runs at all; a run file that cannot be read.
    expect(await turnOfRun(home(), { ...typed, runRefs: [] }, 'tool', ['call-1'])).toBeUndefined();
    expect(await turnOfRun(home(), { ...thread, context: { ...thread.context, messages: [ask, calls(false)] }, runRefs: [ref('gone', 'step')] }, 'tool', ['call-1'])).toBeUndefined();
  });

  it('continuedMessage: the message a run works on', () => {
    const pending = scriptedThread([], { messages: [ask, calls(false)] });
    expect(continuedMessage(pending, 'tool', ['call-1'])?.id).toBe('msg-a1');
    expect(continuedMessage(pending, 'step')).toBeUndefined(); // calls without results: not a Continue
    const done = scriptedThread([], { messages: [ask, calls(true)] });
    expect(continuedMessage(done, 'react')?.id).toBe('msg-a1');
  });
});
