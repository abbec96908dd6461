import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallClock } from './call-clock';

afterEach(() => vi.useRealTimers());

describe('CallClock', () => {
  it('times out after the wait without progress; progress starts the wait again; a hold stops it', () => {
    vi.useFakeTimers();
    const fired: number[] = [];
    const clock = new CallClock(1000, () => fired.push(Date.now()));
    const t0 = Date.now();
    clock.touch();
    vi.advanceTimersByTime(900);
    clock.touch(); // progress
    vi.advanceTimersByTime(900);
    expect(fired).toEqual([]);
    const release = clock.hold(); // a form is open
    const nested = clock.hold();
    vi.advanceTimersByTime(10_000);
    expect(fired).toEqual([]);
    release();
    vi.advanceTimersByTime(10_000);
    expect(fired).toEqual([]); // still held by the second request
    nested();
    vi.advanceTimersByTime(999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([t0 + 900 + 900 + 10_000 + 10_000 + 1000]);
    clock.touch(); // after it fired, nothing more
    vi.advanceTimersByTime(5000);
    expect(fired).toHaveLength(1);
  });

  it('stop() ends it for good', () => {
    vi.useFakeTimers();
    let fired = false;
    const clock = new CallClock(100, () => (fired = true));
    clock.touch();
    clock.stop();
    clock.touch();
    vi.advanceTimersByTime(1000);
    expect(fired).toBe(false);
  });
});
