import type { VirtualItem } from '@tanstack/react-virtual';

/**
 * The focused row when it is mounted apart from the contiguous block of rows in range (scrolled
 * out of view), else undefined. `items` are in index order.
 */
export function detachedRow(items: VirtualItem[], activeIndex: number): VirtualItem | undefined {
  const at = items.findIndex((v) => v.index === activeIndex);
  if (at < 0 || items.length < 2) return undefined;
  const joinedBefore = at > 0 && items[at - 1].index === activeIndex - 1;
  const joinedAfter = at < items.length - 1 && items[at + 1].index === activeIndex + 1;
  return joinedBefore || joinedAfter ? undefined : items[at];
}
