/** The rate limit behind the refusal log and the message gate (log-window.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogWindow } from './log-window';

/** Event times as gaps (ms, so the times never go back), with `takeHeldBack` calls mixed in. */
const steps = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 3000 }), take: fc.boolean() }), { maxLength: 200 });

describe('LogWindow', () => {
  it('counts every event once: passed + held back reported + held back left = events', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1000 }), steps, (max, windowMs, list) => {
        const limit = new LogWindow(max, windowMs);
        let t = 0;
        let passed = 0;
        let reported = 0;
        for (const s of list) {
          t += s.gap;
          const r = limit.admit(t);
          if (r.pass) passed++;
          // Only an event that goes through carries a count (it opened a window).
          else expect(r.heldBack).toBe(0);
          reported += r.heldBack;
          if (s.take) reported += limit.takeHeldBack();
        }
        expect(passed + reported + limit.takeHeldBack()).toBe(list.length);
      }),
    );
  });

  it('lets `max` events of a window through, holds the rest back, and reports them with the next window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 30 }), (max, windowMs, burst) => {
        const limit = new LogWindow(max, windowMs);
        const at0 = Array.from({ length: burst }, () => limit.admit(1000));
        expect(at0.filter((r) => r.pass).length).toBe(Math.min(burst, max));
        expect(at0.every((r) => r.heldBack === 0)).toBe(true);
        expect(limit.endsIn(1000 + windowMs - 1)).toBe(1);
        // Still the same window one ms before its end: held back.
        if (burst >= max) expect(limit.admit(1000 + windowMs - 1)).toEqual({ pass: false, heldBack: 0 });
        const extra = burst >= max ? 1 : 0;
        expect(limit.admit(1000 + windowMs)).toEqual({ pass: true, heldBack: Math.max(0, burst - max) + extra });
        expect(limit.endsIn(1000 + 3 * windowMs)).toBe(0);
      }),
    );
  });

  it('never holds back events at least a window apart', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1000 }), fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 50 }), (max, windowMs, gaps) => {
        const limit = new LogWindow(max, windowMs);
        let t = 0;
        for (const g of gaps) {
          t += windowMs + g;
          expect(limit.admit(t)).toEqual({ pass: true, heldBack: 0 });
        }
      }),
    );
  });
});
