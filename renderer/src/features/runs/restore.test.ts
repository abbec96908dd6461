import { describe, expect, it } from 'vitest';
import { restorePlan } from './restore';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { Message } from '../../../../shared/thread/messages';

const user = (id: string, text: string): Message => ({ id, role: 'user', content: [{ type: 'text', text }] });
const asst = (id: string, text: string, calls?: { id: string; name: string }[]): Message => ({
  id,
  role: 'assistant',
  content: [{ type: 'text', text }],
  ...(calls ? { toolCalls: calls.map((c) => ({ ...c, arguments: {} })) } : {}),
});
const rec = (extra: Partial<RunRecord>): RunRecord => ({ runId: 'r', threadId: 't', mode: 'step', status: 'completed', startedAt: 0, nodes: [], records: [], ...extra });

describe('restore a past run', () => {
  it('rebuilds the conversation from the messages the run started from plus what it added', () => {
    const now = [user('u1', 'hi'), asst('a1', 'later answer'), user('u2', 'more')];
    const plan = restorePlan(rec({ baseMessageIds: ['u1'], messages: [asst('a0', 'the old answer')] }), now);
    expect(plan.ok && plan.messages.map((m) => m.id)).toEqual(['u1', 'a0']);
  });

  it('fills the tool results of a tool step into their calls', () => {
    const now = [user('u1', 'hi'), asst('a1', 'calling', [{ id: 'c1', name: 'get-sum' }])];
    const output = { content: [{ type: 'text' as const, text: '42' }], isError: false };
    const plan = restorePlan(rec({ mode: 'tool', baseMessageIds: ['u1', 'a1'], messages: [], toolOutputs: [{ messageId: 'a1', toolCallId: 'c1', output }] }), now);
    expect(plan.ok && plan.messages[1].role === 'assistant' && plan.messages[1].toolCalls![0].output).toEqual(output);
    // The current thread is not mutated.
    expect((now[1] as { toolCalls: { output?: unknown }[] }).toolCalls[0].output).toBeUndefined();
  });

  it('refuses with a reason when a starting message was deleted, or the run added nothing', () => {
    const gone = restorePlan(rec({ baseMessageIds: ['u1', 'x'], messages: [asst('a0', 'a')] }), [user('u1', 'hi')]);
    expect(gone).toEqual({ ok: false, reason: expect.stringMatching(/1 of the messages this run started from was deleted/) });
    const nothing = restorePlan(rec({ baseMessageIds: ['u1'], messages: [] }), [user('u1', 'hi')]);
    expect(nothing.ok).toBe(false);
  });
});
