// Points of a past run: its own model calls in order, the message each wrote (recorded id, or
// paired in order for older runs), and the conversation at any node, property-tested over
// random ReAct runs (calls with and without output, parallel tool calls, nested sampling).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RunRecord } from '../protocol/host-api';
import type { ExecNode } from '../protocol/nodes';
import type { Message } from './messages';
import { callMessages, conversationAt, messagesThrough, modelCalls } from './run-points';

const user = (id: string): Message => ({ id, role: 'user', content: [{ type: 'text', text: id }] });
const node = (id: string, kind: ExecNode['kind'], parentId: string | undefined, startedAt: number, extra: Partial<ExecNode> = {}): ExecNode => ({
  id,
  runId: 'r',
  kind,
  name: id,
  status: 'completed',
  startedAt,
  ...(parentId ? { parentId } : {}),
  ...extra,
});

/** One model call of a generated run: whether it wrote a message, how many tools it called, whether a tool sampled. */
interface CallSpec {
  output: boolean;
  tools: number;
  sampling: boolean;
}

/** A ReAct run over base messages u1, u2 with the given calls; `recordIds` says whether calls record their message id. */
function runOf(calls: CallSpec[], recordIds: boolean): { rec: RunRecord; written: (string | undefined)[] } {
  const nodes: ExecNode[] = [node('root', 'run', undefined, 0)];
  const messages: Message[] = [];
  const written: (string | undefined)[] = [];
  let t = 1;
  calls.forEach((c, j) => {
    const id = `llm${j}`;
    const msgId = c.output ? `m${j}` : undefined;
    written.push(msgId);
    const toolCalls = Array.from({ length: c.tools }, (_, k) => ({ id: `c${j}_${k}`, name: 'f', arguments: {} }));
    nodes.push(node(id, 'llm', 'root', t++, { input: recordIds ? { messageId: msgId ?? `lost${j}` } : {}, output: c.output ? { text: `reply ${j}`, toolCalls } : { text: '' } }));
    for (const tc of toolCalls) {
      nodes.push(node(`tool_${tc.id}`, 'tool', id, t++, { toolCallId: tc.id, output: { content: [], isError: false } }));
      if (c.sampling) nodes.push(node(`sampling_${tc.id}`, 'sampling', `tool_${tc.id}`, t++, { output: { text: 'nested' } }));
    }
    if (msgId) messages.push({ id: msgId, role: 'assistant', content: [{ type: 'text', text: `reply ${j}` }], toolCalls: toolCalls.map((x) => ({ ...x, output: { content: [{ type: 'text', text: 'out' }], isError: false } })) });
  });
  // Nodes as a journal may list them: not in start order.
  nodes.reverse();
  return { rec: { runId: 'r', threadId: 't', mode: 'react', status: 'completed', startedAt: 0, nodes, records: [], messages, baseMessageIds: ['u1', 'u2'] }, written };
}

const callSpec = fc.record({ output: fc.boolean(), tools: fc.integer({ min: 0, max: 3 }), sampling: fc.boolean() });

describe('run points', () => {
  it('the conversation at any node is the base plus the messages of the calls up to its own', () => {
    fc.assert(
      fc.property(fc.array(callSpec, { minLength: 1, maxLength: 8 }), fc.boolean(), (calls, recordIds) => {
        const { rec, written } = runOf(calls, recordIds);
        const current = [user('u1'), user('u2'), user('later')];
        expect(modelCalls(rec).map((n) => n.id)).toEqual(calls.map((_, j) => `llm${j}`));
        const pairs = callMessages(rec);
        calls.forEach((_, j) => expect(pairs.get(`llm${j}`)).toBe(written[j]));
        for (const n of rec.nodes) {
          const at = conversationAt(rec, current, n.id);
          if (!at.ok) throw new Error(at.reason);
          const j = n.kind === 'run' ? calls.length - 1 : Number(/(?:llm|_c)(\d+)/.exec(n.id)![1]);
          const expected = ['u1', 'u2', ...written.slice(0, j + 1).filter((x): x is string => !!x)];
          expect(at.messages.map((m) => m.id)).toEqual(expected);
          expect(at.messageId).toBe(expected.at(-1));
        }
      }),
    );
  });

  it('keeps the run’s tool results, copies (never shares) the messages, and says why it cannot rebuild', () => {
    const { rec } = runOf([{ output: true, tools: 1, sampling: false }], true);
    const current = [user('u1'), user('u2')];
    const at = conversationAt(rec, current, 'tool_c0_0');
    expect(at.ok && at.messages[2]).toMatchObject({ id: 'm0', toolCalls: [{ id: 'c0_0', output: { content: [{ type: 'text', text: 'out' }] } }] });
    expect(at.ok && at.messages[0]).not.toBe(current[0]);
    expect(conversationAt(rec, current, 'nope')).toEqual({ ok: false, reason: 'Run r has no node nope.' });
    expect(conversationAt(rec, [user('u1')], 'llm0')).toEqual({ ok: false, reason: expect.stringMatching(/1 of the messages this run started from was deleted/) });
    expect(conversationAt({ ...rec, baseMessageIds: undefined }, current, 'llm0').ok).toBe(false);
  });

  it('messagesThrough cuts after a message, or says there is none', () => {
    const ms = [user('a'), user('b'), user('c')];
    expect(messagesThrough(ms, 'b')?.map((m) => m.id)).toEqual(['a', 'b']);
    expect(messagesThrough(ms, 'x')).toBeUndefined();
  });
});
