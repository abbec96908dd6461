import { describe, expect, it } from 'vitest';
import type { Thread } from './schema';
import { pendingToolCalls, runProblem, toolStepProblem } from './tool-calls';

function thread(messages: Thread['context']['messages']): Thread {
  return { version: 1, id: 't', title: 't', model: { provider: 'scripted', id: 'scripted', params: {} }, context: { systemPrompt: '', tools: [], messages }, runRefs: [] };
}
const user = { id: 'u', role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] };
const done = { content: [{ type: 'text' as const, text: '3' }], isError: false };

describe('tool step checks', () => {
  it('finds the pending calls of the last assistant message only', () => {
    const t = thread([user, { id: 'a', role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'f', arguments: {}, output: done }, { id: 'c2', name: 'g', arguments: {} }] }]);
    expect(pendingToolCalls(t)?.calls.map((c) => c.id)).toEqual(['c2']);
    expect(toolStepProblem(t)).toBeUndefined();
    expect(toolStepProblem(t, ['c2'])).toBeUndefined();
    expect(toolStepProblem(t, ['c1', 'c7'])).toBe('Tool calls f (c1), "c7" are not pending in the last message (pending: g (c2)).');
    expect(toolStepProblem(t, [''])).toBe('Tool call "" is not pending in the last message (pending: g (c2)).');
  });

  it('says there is nothing to run when the last message is a user message or every call has a result', () => {
    expect(toolStepProblem(thread([user]))).toBe('No pending tool calls to run: the last message has none without a result.');
    const answered = thread([user, { id: 'a', role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'f', arguments: {}, output: done }] }]);
    expect(pendingToolCalls(answered)).toBeUndefined();
    expect(toolStepProblem(answered, ['c1'])).toMatch(/^No pending tool calls/);
  });
});

describe('runProblem', () => {
  it('refuses an LLM step or ReAct loop while tool calls wait, and a thread with no messages', () => {
    const waiting = thread([user, { id: 'a', role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'get-sum', arguments: {} }] }]);
    expect(runProblem(waiting, 'step')).toEqual({
      code: 'pending_tool_calls',
      message: 'Tool calls are waiting for results: get-sum (c1). Run them (Run tool / Run all tools) or type their results, then Continue.',
    });
    expect(runProblem(waiting, 'react')?.code).toBe('pending_tool_calls');
    expect(runProblem(waiting, 'tool')).toBeUndefined();
    expect(runProblem(thread([]), 'step')).toEqual({ code: 'no_messages', message: 'The thread has no messages: add a user message, then Run.' });
    expect(runProblem(thread([user]), 'tool')?.code).toBe('no_pending_tool_calls');
    expect(runProblem(thread([user]), 'react')).toBeUndefined();
  });
});
