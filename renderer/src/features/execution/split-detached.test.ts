import { describe, expect, it } from 'vitest';
import type { VirtualItem } from '@tanstack/react-virtual';
import { splitDetached } from './split-detached';

const item = (index: number): VirtualItem => ({ index, key: `n${index}`, start: index * 30, end: index * 30 + 30, size: 30, lane: 0 });
const indices = (xs: VirtualItem[]) => xs.map((v) => v.index);

describe('splitDetached', () => {
  it('keeps a focused row inside the block in the flow', () => {
    const { flow, detached } = splitDetached([4, 5, 6, 7].map(item), 6);
    expect(indices(flow)).toEqual([4, 5, 6, 7]);
    expect(detached).toBeUndefined();
  });

  it('keeps a focused row right after or before the block in the flow', () => {
    expect(splitDetached([4, 5, 6].map(item), 6).detached).toBeUndefined();
    expect(splitDetached([4, 5, 6].map(item), 4).detached).toBeUndefined();
  });

  it('places a focused row scrolled far above the block on its own', () => {
    const { flow, detached } = splitDetached([0, 40, 41, 42].map(item), 0);
    expect(indices(flow)).toEqual([40, 41, 42]);
    expect(detached?.index).toBe(0);
    expect(detached?.start).toBe(0);
  });

  it('places a focused row below the block on its own', () => {
    const { flow, detached } = splitDetached([10, 11, 12, 90].map(item), 90);
    expect(indices(flow)).toEqual([10, 11, 12]);
    expect(detached?.index).toBe(90);
  });

  it('leaves everything in the flow when no row is focused or only one is mounted', () => {
    expect(indices(splitDetached([1, 2, 3].map(item), -1).flow)).toEqual([1, 2, 3]);
    expect(indices(splitDetached([7].map(item), 7).flow)).toEqual([7]);
  });
});
