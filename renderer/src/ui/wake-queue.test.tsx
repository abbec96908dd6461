/**
 * The queue that makes message cards and editors one at a time
 * (renderer/src/ui/wake-queue.ts): one request per turn, highest priority
 * first, first come first served within a priority; a withdrawn or replaced request never runs;
 * a failing request does not stop the others.
 */
import { describe, expect, it } from 'vitest';
import { WakeQueue } from './wake-queue';

/** A queue whose turns the test runs by hand. */
function manual() {
  const turns: (() => void)[] = [];
  const q = new WakeQueue({ schedule: (run) => turns.push(run) });
  const step = () => turns.shift()?.();
  return { q, turns, step };
}

describe('WakeQueue', () => {
  it('runs one request per turn, by priority, then in order of asking', () => {
    const { q, turns, step } = manual();
    const ran: string[] = [];
    q.add('editor-1', () => ran.push('editor-1'), 2);
    q.add('nearby', () => ran.push('nearby'), 1);
    q.add('visible', () => ran.push('visible'), 3);
    q.add('editor-2', () => ran.push('editor-2'), 2);
    expect(turns).toHaveLength(1); // one turn scheduled at a time
    step();
    expect(ran).toEqual(['visible']);
    while (turns.length) step();
    expect(ran).toEqual(['visible', 'editor-1', 'editor-2', 'nearby']);
    expect(q.size).toBe(0);
  });

  it('a withdrawn request does not run; a newer one for the same key replaces the older', () => {
    const { q, turns, step } = manual();
    const ran: string[] = [];
    const withdraw = q.add('a', () => ran.push('a'), 1);
    q.add('b', () => ran.push('b-old'), 1);
    q.add('b', () => ran.push('b-new'), 3);
    withdraw();
    withdraw(); // twice is harmless
    while (turns.length) step();
    expect(ran).toEqual(['b-new']);
  });

  it('an old withdraw function does not remove a newer request for its key', () => {
    const { q, turns, step } = manual();
    const ran: string[] = [];
    const old = q.add('k', () => ran.push('old'));
    q.add('k', () => ran.push('new'));
    old();
    while (turns.length) step();
    expect(ran).toEqual(['new']);
  });

  it('keeps going after a request throws', () => {
    const { q, turns, step } = manual();
    const ran: string[] = [];
    q.add('bad', () => {
      throw new Error('boom');
    });
    q.add('good', () => ran.push('good'));
    expect(() => step()).toThrow('boom');
    while (turns.length) step();
    expect(ran).toEqual(['good']);
  });
});
