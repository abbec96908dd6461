import { describe, expect, it } from 'vitest';
import { RunTurns } from './run-turns';

const never = () => new AbortController().signal;

describe('RunTurns', () => {
  it('lets one run call in parallel and makes another run wait until all of its calls end', async () => {
    const turns = new RunTurns();
    const a1 = await turns.acquire('A', never());
    const a2 = await turns.acquire('A', never());
    const waits: string[] = [];
    let bGranted = false;
    const b = turns.acquire('B', never(), (holder) => waits.push(holder)).then((r) => ((bGranted = true), r));
    expect(waits).toEqual(['A']);
    a1();
    await Promise.resolve();
    expect(bGranted).toBe(false);
    a2();
    const bRelease = await b;
    expect(bGranted).toBe(true);
    expect(turns.current).toBe('B');
    bRelease();
    expect(turns.current).toBeUndefined();
  });

  it('hands the turn to the next run in line with all its waiting calls; a waiter that aborts leaves the line', async () => {
    const turns = new RunTurns();
    const a = await turns.acquire('A', never());
    const order: string[] = [];
    const ac = new AbortController();
    const c = turns.acquire('C', ac.signal).then(() => order.push('C'), (e: Error) => order.push(`C aborted: ${e.message}`));
    const b1 = turns.acquire('B', never()).then((r) => (order.push('B1'), r));
    const b2 = turns.acquire('B', never()).then((r) => (order.push('B2'), r));
    ac.abort(new Error('cancelled'));
    await c;
    a();
    const [r1, r2] = await Promise.all([b1, b2]);
    expect(order).toEqual(['C aborted: cancelled', 'B1', 'B2']);
    expect(turns.current).toBe('B');
    r1();
    r1(); // a second release is ignored
    expect(turns.current).toBe('B');
    r2();
    expect(turns.current).toBeUndefined();
  });
});
