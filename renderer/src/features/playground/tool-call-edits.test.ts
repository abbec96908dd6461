import { describe, expect, it } from 'vitest';
import { applyPatches, enablePatches, produceWithPatches } from 'immer';
import type { Thread } from '../../../../shared/thread/schema';
import type { Tool } from '../../../../shared/thread/tools';
import { pendingToolCalls } from '../../../../shared/thread/tool-calls';
import { validateThread } from '../../../../shared/thread/validate';
import { addToolCall, newToolCall, removeToolCall, toolChoices } from './tool-call-edits';
import { threadWith } from '../../../../tests/support/threads';

enablePatches();

const done = { content: [{ type: 'text' as const, text: '5' }], isError: false };
const sumSchema = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] };
const tools: Tool[] = [
  { type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } },
  { type: 'mcp', name: 'get-sum', server: 'everything', toolName: 'get-sum', inputSchema: sumSchema },
  { type: 'mcp', name: 'lookup', server: 'other', toolName: 'lookup', inputSchema: {} },
];

function thread(): Thread {
  return threadWith(
    {
      tools,
      messages: [
        { id: 'u', role: 'user', content: [{ type: 'text', text: 'add 2 and 3' }] },
        { id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'first' }], toolCalls: [{ id: 'c1', name: 'get-sum', arguments: { a: 2, b: 3 }, output: done }] },
        { id: 'a2', role: 'assistant', content: [{ type: 'text', text: 'no calls yet' }] },
      ],
    },
    { id: 't', title: 't' },
  );
}

describe('tool calls added and removed by hand', () => {
  it('offers the thread tools by the name calls carry, in order, without repeats', () => {
    expect(toolChoices(tools)).toEqual([
      { value: 'lookup', label: 'lookup' },
      { value: 'get-sum', label: 'get-sum' },
    ]);
    expect(toolChoices([])).toEqual([]);
  });

  it('adds a pending call with arguments {} as one undoable edit', () => {
    const before = thread();
    const [after, forward, inverse] = produceWithPatches(before, (d) => void addToolCall(d as Thread, 'a2', newToolCall(' get-sum ', 'call_x')));
    expect(forward.length).toBeGreaterThan(0);
    const a2 = after.context.messages[2];
    expect(a2.role === 'assistant' && a2.toolCalls).toEqual([{ id: 'call_x', name: 'get-sum', arguments: {} }]);
    expect(pendingToolCalls(after)?.calls.map((c) => c.id)).toEqual(['call_x']);
    expect(validateThread(after).ok).toBe(true);
    expect(applyPatches(after, inverse)).toEqual(before);

    // Appended after the calls already there.
    const [more] = produceWithPatches(before, (d) => void addToolCall(d as Thread, 'a1', newToolCall('lookup', 'call_y')));
    const a1 = more.context.messages[1];
    expect(a1.role === 'assistant' && a1.toolCalls?.map((c) => c.id)).toEqual(['c1', 'call_y']);
  });

  it('refuses a user message, an unknown message, a used id and an empty name', () => {
    const t = thread();
    expect(addToolCall(t, 'u', newToolCall('lookup', 'n1'))).toBe(false);
    expect(addToolCall(t, 'nope', newToolCall('lookup', 'n2'))).toBe(false);
    expect(addToolCall(t, 'a2', newToolCall('lookup', 'c1'))).toBe(false);
    expect(addToolCall(t, 'a2', newToolCall('  ', 'n3'))).toBe(false);
    expect(t).toEqual(thread());
  });

  it('removes a call together with its result, and the field when no call is left; undo brings both back', () => {
    const before = thread();
    const [after, , inverse] = produceWithPatches(before, (d) => void removeToolCall(d as Thread, 'a1', 'c1'));
    expect(after.context.messages[1]).toEqual({ id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'first' }] });
    expect(validateThread(after).ok).toBe(true);
    expect(applyPatches(after, inverse)).toEqual(before);
    expect(removeToolCall(thread(), 'a1', 'c1')).toEqual({ id: 'c1', name: 'get-sum', arguments: { a: 2, b: 3 }, output: done });
    expect(removeToolCall(thread(), 'a1', 'missing')).toBeUndefined();
    expect(removeToolCall(thread(), 'a2', 'c1')).toBeUndefined();
  });
});
