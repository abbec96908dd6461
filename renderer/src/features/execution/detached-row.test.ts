import { describe, expect, it } from 'vitest';
import type { VirtualItem } from '@tanstack/react-virtual';
import { detachedRow } from './detached-row';

const item = (index: number): VirtualItem => ({ index, key: `n${index}`, start: index * 30, end: index * 30 + 30, size: 30, lane: 0 });

describe('detachedRow', () => {
  it('is none for a focused row inside the block, or right before or after it', () => {
    expect(detachedRow([4, 5, 6, 7].map(item), 6)).toBeUndefined();
    expect(detachedRow([4, 5, 6].map(item), 6)).toBeUndefined();
    expect(detachedRow([4, 5, 6].map(item), 4)).toBeUndefined();
  });

  it('is the focused row scrolled far above or below the block', () => {
    expect(detachedRow([0, 40, 41, 42].map(item), 0)).toMatchObject({ index: 0, start: 0 });
    expect(detachedRow([10, 11, 12, 90].map(item), 90)).toMatchObject({ index: 90, start: 2700 });
  });

  it('is none when no row is focused or only one is mounted', () => {
    expect(detachedRow([1, 2, 3].map(item), -1)).toBeUndefined();
    expect(detachedRow([7].map(item), 7)).toBeUndefined();
  });
});
