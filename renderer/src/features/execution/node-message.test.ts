/**
 * Which message of the thread an execution-tree node stands for
 * (renderer/src/features/execution/node-message.ts), for "Show in thread".
 */
import { describe, expect, it } from 'vitest';
import type { ExecNode } from '../../../../shared/protocol/nodes';
import type { Message } from '../../../../shared/thread/messages';
import { messageForNode } from './node-message';

const node = (id: string, kind: ExecNode['kind'], parentId: string | undefined, extra: Partial<ExecNode> = {}): ExecNode =>
  ({ id, runId: 'r', kind, name: kind, status: 'completed', startedAt: Number(id.replace(/\D/g, '') || 0), ...(parentId ? { parentId } : {}), ...extra }) as ExecNode;
const reply = (id: string, text: string, calls: string[] = []): Message => ({
  id,
  role: 'assistant',
  content: [{ type: 'text', text }],
  ...(calls.length ? { toolCalls: calls.map((c) => ({ id: c, name: 'get-sum', arguments: {} })) } : {}),
});

// A ReAct run: two turns calling a tool, then two answers that happen to be the same text.
const messages: Message[] = [
  { id: 'u1', role: 'user', content: [{ type: 'text', text: 'Add.' }] },
  reply('m1', '', ['c1']),
  reply('m2', 'Again.', ['c2']),
  reply('m3', 'Done.'),
  { id: 'u2', role: 'user', content: [{ type: 'text', text: 'Once more.' }] },
  reply('m4', 'Done.'),
];
const nodes: ExecNode[] = [
  node('run0', 'run', undefined),
  node('llm1', 'llm', 'run0', { output: { text: '', toolCalls: [{ id: 'c1', name: 'get-sum', arguments: {} }] } }),
  node('tool2', 'tool', 'llm1', { toolCallId: 'c1' }),
  node('sampling3', 'sampling', 'tool2', { output: { text: 'a poem' } }),
  node('llm4', 'llm', 'run0', { output: { text: 'Again.', toolCalls: [{ id: 'c2', name: 'get-sum', arguments: {} }] } }),
  node('llm5', 'llm', 'run0', { output: { text: 'Done.' } }),
  node('llm6', 'llm', 'run0', { output: { text: 'Done.' } }),
  node('llm7', 'llm', 'run0', { output: { text: 'Not in the thread (undone).' } }),
];
const find = (id: string, added?: string[]) => messageForNode(messages, id, nodes, added);

describe('messageForNode', () => {
  it('a tool node and an llm node that made calls: the message holding the call', () => {
    expect(find('tool2')).toBe('m1');
    expect(find('llm1')).toBe('m1');
    expect(find('llm4')).toBe('m2');
  });

  it('a sampling node: its tool call\'s message', () => {
    expect(find('sampling3')).toBe('m1');
  });

  it('an answer: the message with its text, the second of two equal answers the second message', () => {
    expect(find('llm5')).toBe('m3');
    expect(find('llm6')).toBe('m4');
    // Only among the messages the run added, when known.
    expect(find('llm5', ['m1', 'm2', 'm4'])).toBe('m4');
  });

  it('the run node: the first message the run added that is still in the thread', () => {
    expect(find('run0', ['gone', 'm1', 'm2'])).toBe('m1');
    expect(find('run0')).toBeUndefined();
  });

  it('nothing for a node whose message is not in the thread, or an unknown node', () => {
    expect(find('llm7')).toBeUndefined();
    expect(find('nope')).toBeUndefined();
  });

  it('a cycle of parents ends', () => {
    const loop = [node('a1', 'agent', 'b2'), node('b2', 'agent', 'a1')];
    expect(messageForNode(messages, 'a1', loop)).toBeUndefined();
  });
});
