// @vitest-environment jsdom
/**
 * The playground's sections mount in turn (sections-shown.ts): none at first, one more per turn
 * of the wake queue, before any row or editor waiting in it, and no more than there are.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { WAKE_PRIORITY, WakeQueue } from '../../ui/wake-queue';
import { useSectionsShown } from './sections-shown';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

function Probe({ queue, count, seen }: { queue: WakeQueue; count: number; seen: number[] }) {
  seen.push(useSectionsShown(queue, count));
  return null;
}

describe('useSectionsShown', () => {
  it('shows no section, then one more per queue turn, ahead of rows, up to the count', () => {
    const turns: (() => void)[] = [];
    const queue = new WakeQueue({ schedule: (run) => turns.push(run) });
    const order: string[] = [];
    queue.add('row', () => order.push('row'), WAKE_PRIORITY.visibleRow);
    const seen: number[] = [];
    act(() => {
      root = createRoot(document.createElement('div'));
      root.render(<Probe queue={queue} count={4} seen={seen} />);
    });
    expect(seen.at(-1)).toBe(0);
    for (const want of [1, 2, 3, 4]) {
      act(() => turns.shift()!());
      expect(seen.at(-1)).toBe(want);
      expect(order).toEqual([]); // the row waits for the sections
    }
    act(() => turns.shift()!());
    expect(order).toEqual(['row']);
    expect(turns).toHaveLength(0); // nothing more queued
    expect(Math.max(...seen)).toBe(4);
  });
});
