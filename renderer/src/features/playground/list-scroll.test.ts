/**
 * The message list's scrolling (list-scroll.ts): the virtualizer's first scroll, to the top, is
 * not made at once (it would lay out the page inside the task mounting the list); a scroll area
 * left lower is put at the top after the next frame, unless the list has scrolled meanwhile;
 * every later scroll, and a first one elsewhere, is made at once. A row that changes size above
 * the viewport's top moves the scroll by as much, unless it is the focused row reaching into view.
 */
import { describe, expect, it, vi } from 'vitest';
import { keepsReaderInPlace, listScrollTo, type ScrollingVirtualizer } from './list-scroll';

function fake(scrollTop: number) {
  const el = { scrollTop, scrollTo: vi.fn() };
  const v = { scrollElement: el, scrollOffset: 0, options: { horizontal: false, isRtl: false } } as unknown as ScrollingVirtualizer & { scrollOffset: number };
  const later: (() => void)[] = [];
  const after = (run: () => void) => void later.push(run);
  return { el, v, later, after };
}

describe('listScrollTo', () => {
  it('skips the first scroll to the top, then scrolls the area there after the frame', () => {
    const { el, v, later, after } = fake(900);
    listScrollTo(0, {}, v, after);
    expect(el.scrollTo).not.toHaveBeenCalled();
    expect(el.scrollTop).toBe(900);
    expect(later).toHaveLength(1);
    later[0]();
    expect(el.scrollTop).toBe(0);
  });

  it('leaves the area alone after the frame when it is at the top already, or the list scrolled meanwhile', () => {
    const top = fake(0);
    listScrollTo(0, {}, top.v, top.after);
    top.later[0]();
    expect(top.el.scrollTop).toBe(0);
    const moved = fake(900);
    listScrollTo(0, {}, moved.v, moved.after);
    (moved.v as { scrollOffset: number }).scrollOffset = 450; // a jump to a message, say
    moved.later[0]();
    expect(moved.el.scrollTop).toBe(900);
  });

  it('makes every later scroll at once, and a first one that is not to the top', () => {
    const { el, v, after } = fake(0);
    listScrollTo(0, {}, v, after);
    listScrollTo(0, {}, v, after);
    listScrollTo(120, { adjustments: 30 }, v, after);
    expect(el.scrollTo.mock.calls).toEqual([[{ top: 0, behavior: undefined }], [{ top: 150, behavior: undefined }]]);
    const other = fake(0);
    listScrollTo(500, {}, other.v, other.after);
    expect(other.el.scrollTo).toHaveBeenCalledWith({ top: 500, behavior: undefined });
    expect(other.later).toHaveLength(0);
  });
});

describe('keepsReaderInPlace', () => {
  const row = (start: number, end: number, key = 'm1') => ({ start, end, key });
  it('moves the scroll for a row above the viewport, and for one reaching into view by a pixel', () => {
    expect(keepsReaderInPlace(row(100, 400), 500, null)).toBe(true);
    expect(keepsReaderInPlace(row(100, 501), 500, null)).toBe(true);
    expect(keepsReaderInPlace(row(100, 501), 500, 'other')).toBe(true);
  });
  it('leaves the scroll alone for a row at or below the viewport\'s top', () => {
    expect(keepsReaderInPlace(row(500, 900), 500, null)).toBe(false);
    expect(keepsReaderInPlace(row(700, 900), 500, null)).toBe(false);
  });
  it('leaves the scroll alone for the focused row reaching into view (the change is where the person types), not for one wholly above', () => {
    expect(keepsReaderInPlace(row(100, 600), 500, 'm1')).toBe(false);
    expect(keepsReaderInPlace(row(100, 500), 500, 'm1')).toBe(true);
  });
});
