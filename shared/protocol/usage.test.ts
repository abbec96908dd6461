import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runUsage, sumUsage, usageLine } from './usage';
import type { Usage } from './nodes';

const count = fc.integer({ min: 0, max: 1e6 });
const usage: fc.Arbitrary<Usage> = fc.record(
  { inputTokens: count, outputTokens: count, cacheReadTokens: count, cacheWriteTokens: count, reasoningTokens: count, costUsd: fc.double({ min: 0, max: 100, noNaN: true }) },
  { requiredKeys: ['inputTokens', 'outputTokens'] },
);

describe('usage roll-up', () => {
  it('sums every count; the cost only when every part has one', () => {
    fc.assert(
      fc.property(fc.array(fc.option(usage, { nil: undefined }), { maxLength: 6 }), (list) => {
        const present = list.filter((u): u is Usage => !!u);
        const total = sumUsage(list);
        if (!present.length) {
          expect(total).toBeUndefined();
          return;
        }
        expect(total!.inputTokens).toBe(present.reduce((s, u) => s + u.inputTokens, 0));
        expect(total!.outputTokens).toBe(present.reduce((s, u) => s + u.outputTokens, 0));
        for (const k of ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
          const has = present.filter((u) => u[k] !== undefined);
          expect(total![k]).toBe(has.length ? has.reduce((s, u) => s + u[k]!, 0) : undefined);
        }
        if (present.every((u) => u.costUsd !== undefined)) expect(total!.costUsd).toBeCloseTo(present.reduce((s, u) => s + u.costUsd!, 0), 9);
        else expect(total!.costUsd).toBeUndefined();
      }),
    );
  });

  it('a run sums its model calls, nested sampling included, never itself or its tools', () => {
    const u = (i: number, o: number): Usage => ({ inputTokens: i, outputTokens: o });
    expect(
      runUsage([
        { kind: 'run', usage: u(1000, 1000) },
        { kind: 'llm', usage: { ...u(10, 5), cacheReadTokens: 4, costUsd: 0.5 } },
        { kind: 'tool' },
        { kind: 'sampling', usage: { ...u(3, 2), reasoningTokens: 1, costUsd: 0.25 } },
      ]),
    ).toEqual({ inputTokens: 13, outputTokens: 7, cacheReadTokens: 4, reasoningTokens: 1, costUsd: 0.75 });
    expect(runUsage([{ kind: 'run' }, { kind: 'tool' }])).toBeUndefined();
  });

  it('reads as one line', () => {
    expect(usageLine({ inputTokens: 1200, outputTokens: 80, cacheReadTokens: 1000, reasoningTokens: 40, costUsd: 0.0012 })).toBe('1200 in · 80 out · 1000 cached · 40 reasoning · $0.00120');
    expect(usageLine({ inputTokens: 5, outputTokens: 1 })).toBe('5 in · 1 out');
  });
});
