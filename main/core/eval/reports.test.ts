import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CaseResult } from '../../../shared/eval/results';
import { junitXml, wallClockSeconds } from './reports';

/** A passed case that started `startedAt` ms after the batch (epoch 1_000_000) and took `ms`; its model call took 5 ms. */
function result(caseId: string, startedAt: number, ms: number, variant = 'base'): CaseResult {
  return {
    caseId,
    variant,
    status: 'passed',
    assertions: [],
    startedAt: 1_000_000 + startedAt,
    endedAt: 1_000_000 + startedAt + ms,
    attempts: 1,
    outcome: { status: 'completed', finalText: 'ok', toolCalls: [], turns: 1, inputTokens: 0, outputTokens: 0, latencyMs: 5 },
  };
}

describe('JUnit report', () => {
  it("gives each testcase its own duration in seconds (endedAt - startedAt), not the time since the batch began nor the model's latency", () => {
    // The second case waited 4 s for a free slot: that wait is not its time.
    const xml = junitXml('b', [result('a', 0, 1500), result('late', 4000, 250)], ['base']);
    const times = [...xml.matchAll(/<testcase [^>]*name="([^"]+)" time="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(times).toEqual([
      ['a', '1.500'],
      ['late', '0.250'],
    ]);
    expect(xml).toContain('<testsuite name="base" tests="2" failures="0" errors="0" time="1.750">');
  });

  it('gives each testsuite, and the testsuites, the wall-clock time of its cases: cases run at the same time count once', () => {
    // Concurrency 3: a, b and c overlap (0-1.5 s, 0.2-1.7 s, 1.0-2.0 s); d ran after a resume, 10 s later, for 0.5 s.
    // The old sum, 1.5 + 1.5 + 1.0 + 0.5 = 4.5 s, was more than the batch took; the wait before the resume is not its time either.
    const base = [result('a', 0, 1500), result('b', 200, 1500), result('c', 1000, 1000), result('d', 12_000, 500)];
    const other = [result('a', 100, 300, 'other'), result('b', 150, 300, 'other')];
    const xml = junitXml('b', [...base, ...other], ['base', 'other']);
    expect(xml).toContain('<testsuite name="base" tests="4" failures="0" errors="0" time="2.500">');
    expect(xml).toContain('<testsuite name="other" tests="2" failures="0" errors="0" time="0.350">');
    expect(xml).toContain('<testsuites name="b" tests="6" failures="0" errors="0" time="2.500">');
    // Per-case times stay each case's own.
    expect([...xml.matchAll(/<testcase [^>]*name="([^"]+)" time="([^"]+)"/g)].map((m) => m[2])).toEqual(['1.500', '1.500', '1.000', '0.500', '0.300', '0.300']);
    expect(junitXml('empty', [], ['base'])).toContain('<testsuite name="base" tests="0" failures="0" errors="0" time="0.000">');
  });

  it('wall-clock time is at most the sum of the case times and the span from first start to last end, at least the longest case', () => {
    const span = fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 10_000 })).map(([start, ms]) => ({ startedAt: start, endedAt: start + ms }));
    fc.assert(
      fc.property(fc.array(span, { minLength: 1, maxLength: 30 }), (spans) => {
        const wall = Number(wallClockSeconds(spans)) * 1000;
        const sum = spans.reduce((t, s) => t + s.endedAt - s.startedAt, 0);
        const longest = Math.max(...spans.map((s) => s.endedAt - s.startedAt));
        const whole = Math.max(...spans.map((s) => s.endedAt)) - Math.min(...spans.map((s) => s.startedAt));
        expect(wall).toBeLessThanOrEqual(Math.min(sum, whole) + 0.5);
        expect(wall).toBeGreaterThanOrEqual(longest - 0.5);
        // Back to back, with no gap, it is exactly the span.
        const chained = spans.reduce<{ startedAt: number; endedAt: number }[]>((acc, s) => {
          const from = acc.at(-1)?.endedAt ?? 0;
          return [...acc, { startedAt: from, endedAt: from + s.endedAt - s.startedAt }];
        }, []);
        expect(wallClockSeconds(chained)).toBe((chained.at(-1)!.endedAt / 1000).toFixed(3));
      }),
    );
  });
});
