/**
 * How the message list (MessageList.tsx) scrolls its scroll area: as the virtualizer asks
 * (@tanstack/react-virtual's `elementScroll`), except for the scroll to the top it asks for when it
 * first meets the scroll area. Made at once, that scroll lays out the whole page inside the task
 * that mounts the list (a long task when a thread opens). A list opens at the top anyway; a scroll
 * area left lower by the thread shown before is put at the top after the next frame, whose layout
 * has to happen anyway.
 */
import { elementScroll, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';

/** Virtualizers that have scrolled (or skipped their first scroll) once. */
const attached = new WeakSet<object>();

/** What {@link listScrollTo} needs of a virtualizer. */
export type ScrollingVirtualizer = Pick<Virtualizer<HTMLDivElement, Element>, 'scrollElement' | 'scrollOffset' | 'options'>;

/**
 * The virtualizer's `scrollToFn`: `offset` px (plus `adjustments`) from the top of `v`'s scroll
 * element; `after` schedules the deferred reset (default: after the next frame).
 */
export function listScrollTo(
  offset: number,
  o: { adjustments?: number; behavior?: ScrollBehavior },
  v: ScrollingVirtualizer,
  after: (run: () => void) => void = (run) => requestAnimationFrame(() => setTimeout(run, 0)),
): void {
  const first = !attached.has(v);
  attached.add(v);
  const el = v.scrollElement;
  if (first && el && offset === 0 && !o.adjustments) {
    after(() => {
      if (v.scrollElement === el && v.scrollOffset === 0 && el.scrollTop !== 0) el.scrollTop = 0;
    });
    return;
  }
  elementScroll(offset, o, v as Virtualizer<HTMLDivElement, Element>);
}

/**
 * The virtualizer's `shouldAdjustScrollPositionOnItemSizeChange`: whether a row that changed size
 * moves the scroll by as much, so what the reader sees stays put. Yes for a row whose top is above
 * the viewport's (`scrollOffset`, px, in the virtualizer's coordinates), unless it holds the focus
 * (`focusedKey`) and reaches into view: then the change is where the person types, and what is
 * below it moves, as in any editor. The virtualizer's own rule leaves out a row that reaches into
 * view by even a pixel, and any row while the last scroll went up: an outside change to such a row
 * pushed the message being read down by the change's height.
 */
export function keepsReaderInPlace(item: Pick<VirtualItem, 'start' | 'end' | 'key'>, scrollOffset: number, focusedKey: string | null): boolean {
  if (item.start >= scrollOffset) return false;
  return item.end <= scrollOffset || item.key !== focusedKey;
}
