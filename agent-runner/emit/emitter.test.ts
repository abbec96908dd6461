import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { RunEmitter } from './emitter';
import { StreamConsumer } from '../../shared/stream/consumer';
import type { RunnerToHost } from '../../shared/protocol/runner';
import type { LlmDelta } from '../../shared/protocol/envelopes';

const node = (id: string, status: 'running' | 'completed' = 'running') => ({ id, runId: 'r', kind: 'llm' as const, name: 'm', status, startedAt: 1 });

describe('RunEmitter', () => {
  it('coalesces deltas of one node and channel into one frame within the flush window', async () => {
    const out: RunnerToHost[] = [];
    const e = new RunEmitter('r', (m) => out.push(m));
    for (const t of ['a', 'b', 'c']) e.delta('n', 'text', 0, t);
    expect(out).toEqual([]);
    await new Promise((r) => setTimeout(r, 40));
    expect(out).toEqual([{ v: 1, type: 'llm_delta', runId: 'r', nodeId: 'n', channel: 'text', index: 0, delta: 'abc', seq: 1 }]);
  });

  it('never coalesces across channels, nodes or tool-call indexes, and seq is per node across channels', () => {
    const out: LlmDelta[] = [];
    const e = new RunEmitter('r', (m) => out.push(m as LlmDelta));
    e.delta('n1', 'thinking', 0, 'think');
    e.delta('n1', 'text', 0, 'hi');
    e.delta('n2', 'text', 0, 'other');
    e.delta('n1', 'tool_args', 0, '{"a"');
    e.delta('n1', 'tool_args', 1, '{"b"');
    e.flush();
    expect(out.map((d) => [d.nodeId, d.channel, d.index, d.delta, d.seq])).toEqual([
      ['n1', 'thinking', 0, 'think', 1],
      ['n1', 'text', 0, 'hi', 2],
      ['n2', 'text', 0, 'other', 1],
      ['n1', 'tool_args', 0, '{"a"', 3],
      ['n1', 'tool_args', 1, '{"b"', 4],
    ]);
  });

  it('flushes at once when a buffer reaches maxBytes', () => {
    const out: RunnerToHost[] = [];
    const e = new RunEmitter('r', (m) => out.push(m), { maxBytes: 8 });
    e.delta('n', 'text', 0, '12345');
    expect(out).toHaveLength(0);
    e.delta('n', 'text', 0, '6789');
    expect(out).toHaveLength(1);
    expect((out[0] as LlmDelta).delta).toBe('123456789');
  });

  it("flushes a node's deltas before its tree_update", () => {
    const out: RunnerToHost[] = [];
    const e = new RunEmitter('r', (m) => out.push(m));
    e.delta('n', 'text', 0, 'last words');
    e.tree([node('n', 'completed')]);
    expect(out.map((m) => m.type)).toEqual(['llm_delta', 'tree_update']);
  });

  it('a lone delta followed by a long pause reaches the port within 50 ms (timer flush)', () => {
    // Fake timers: this checks the emitter's own flush timer, not how busy the machine is.
    vi.useFakeTimers();
    try {
      const at: number[] = [];
      const start = Date.now();
      const e = new RunEmitter('r', () => at.push(Date.now() - start));
      e.delta('n', 'text', 0, 'x');
      vi.advanceTimersByTime(2000); // nothing else happens for 2 s
      expect(at).toHaveLength(1);
      expect(at[0]).toBeLessThanOrEqual(50);
      e.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('property: any chunking of a stream assembles to the same text with contiguous seq', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ ch: fc.constantFrom('text', 'thinking', 'tool_args') as fc.Arbitrary<'text' | 'thinking' | 'tool_args'>, s: fc.string({ minLength: 1, maxLength: 20 }) }), { maxLength: 60 }), fc.array(fc.nat(10)), (parts, flushPoints) => {
        const out: RunnerToHost[] = [];
        const e = new RunEmitter('r', (m) => out.push(m), { maxBytes: 32 });
        const want = { text: '', thinking: '', tool_args: '' };
        parts.forEach((p, i) => {
          e.delta('n', p.ch, 0, p.s);
          want[p.ch] += p.s;
          if (flushPoints.includes(i)) e.flush();
        });
        e.close();
        const deltas = out as LlmDelta[];
        expect(deltas.map((d) => d.seq)).toEqual(deltas.map((_, i) => i + 1));
        const c = new StreamConsumer();
        c.apply({ v: 1, type: 'tree_update', runId: 'r', nodes: [node('n')] });
        for (const d of deltas) c.apply(d);
        const n = c.get('n')!;
        expect({ text: n.text, thinking: n.thinking, tool_args: n.toolArgs[0] ?? '' }).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });

  it("merges a node's changes within the flush window into one node_update, sent before the node's next tree_update", () => {
    vi.useFakeTimers();
    try {
      const out: RunnerToHost[] = [];
      const e = new RunEmitter('r', (m) => out.push(m));
      e.update('t', { attrs: { progress: 1 } });
      e.update('t', { logs: [{ level: 'info', data: 'a', t: 1 }] });
      e.update('t', { status: 'awaiting_input', logs: [{ level: 'info', data: 'b', t: 2 }] });
      e.update('u', { attrs: { progress: 7 } });
      expect(out).toEqual([]);
      vi.advanceTimersByTime(16);
      expect(out).toEqual([
        { v: 1, type: 'node_update', runId: 'r', nodeId: 't', status: 'awaiting_input', attrs: { progress: 1 }, logs: [{ level: 'info', data: 'a', t: 1 }, { level: 'info', data: 'b', t: 2 }] },
        { v: 1, type: 'node_update', runId: 'r', nodeId: 'u', attrs: { progress: 7 } },
      ]);
      out.length = 0;
      e.update('t', { attrs: { progress: 2 } });
      e.tree([{ ...node('t', 'completed'), kind: 'tool' }]);
      expect(out.map((m) => m.type)).toEqual(['node_update', 'tree_update']);
      e.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
