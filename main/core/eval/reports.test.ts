import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../../shared/eval/results';
import { junitXml } from './reports';

/** A passed case that started `startedAt` ms after the batch (epoch 1_000_000) and took `ms`; its model call took 5 ms. */
function result(caseId: string, startedAt: number, ms: number): CaseResult {
  return {
    caseId,
    variant: 'base',
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
});
