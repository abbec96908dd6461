import type { VirtualItem } from '@tanstack/react-virtual';

/**
 * Splits the mounted rows into the contiguous block in range and the focused row when it is
 * mounted apart from that block (scrolled out of view). Rows are in index order.
 */
export function splitDetached(items: VirtualItem[], activeIndex: number): { flow: VirtualItem[]; detached?: VirtualItem } {
  const at = items.findIndex((v) => v.index === activeIndex);
  if (at < 0 || items.length < 2) return { flow: items };
  const joinedBefore = at > 0 && items[at - 1].index === activeIndex - 1;
  const joinedAfter = at < items.length - 1 && items[at + 1].index === activeIndex + 1;
  if (joinedBefore || joinedAfter) return { flow: items };
  return { flow: items.filter((_, i) => i !== at), detached: items[at] };
}
