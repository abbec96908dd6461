/** One duration per node and run, read the same way by every view (duration.ts). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDuration, nodeDurationMs, runDurationMs, runRefDurationMs } from './duration';

describe('durations', () => {
  it('take the stored durationMs over start and end times, and fall back to them for older records', () => {
    expect(nodeDurationMs({ startedAt: 0, endedAt: 835, durationMs: 437 })).toBe(437);
    expect(nodeDurationMs({ startedAt: 100, endedAt: 935 })).toBe(835);
    expect(nodeDurationMs({ startedAt: 100 })).toBeUndefined();
    expect(runRefDurationMs({ startedAt: 0, endedAt: 2640, durationMs: 1670 })).toBe(1670);
    expect(runRefDurationMs({ startedAt: 0, endedAt: 2640 })).toBe(2640);
  });

  it('a run lasts as long as its root run node, not the host-side record times', () => {
    const nodes = [
      { kind: 'llm' as const, parentId: 'r.1', startedAt: 10, endedAt: 900, durationMs: 880 },
      { kind: 'run' as const, startedAt: 5, endedAt: 1680, durationMs: 1670 },
    ];
    expect(runDurationMs({ startedAt: 0, endedAt: 2640, nodes })).toBe(1670);
    expect(runDurationMs({ startedAt: 0, endedAt: 2640, nodes: [] })).toBe(2640);
  });

  it('formats as the views print: whole ms under a second, else seconds with two decimals', () => {
    expect(formatDuration(437)).toBe('437 ms');
    expect(formatDuration(1670)).toBe('1.67 s');
    expect(formatDuration(undefined)).toBe('—');
    fc.assert(fc.property(fc.nat(10_000_000), (ms) => /^(\d{1,3} ms|\d+\.\d\d s)$/.test(formatDuration(ms))));
  });
});
