import { describe, expect, it } from 'vitest';
import type { Thread } from './schema';
import { pendingToolCalls, toolStepProblem } from './tool-calls';

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
