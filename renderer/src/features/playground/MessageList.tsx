/**
 * The thread's messages, virtualised (@tanstack/react-virtual) inside the playground's scroll
 * area: above {@link MOUNT_ALL_UP_TO} messages only those near the viewport are mounted, each
 * measured as it renders. A row is a placeholder, then its card, then its editors (those of rows
 * in view), one per task (MessageRow.tsx, ui/wake-queue.ts).
 *
 * - Scroll position holds: a row above the viewport (or reaching into it from above, unless it has
 *   the focus: list-scroll.ts) that changes size, and messages added or
 *   removed above it (another window, a run's result, undo), leave the message being read where
 *   it is (the virtualizer's end anchoring, `anchorTo: 'end'`, without following appends); a
 *   message that changes while it is not mounted keeps its estimated size until it mounts.
 * - The focused message and any message whose arguments do not parse yet stay mounted when
 *   scrolled away, so a half-typed value is never lost with its row.
 * - Jumps: to a message ({@link messageJumpAtom}, from the execution tree, or a message just
 *   added, whose text editor takes the focus) and to the current find match (FindBar.tsx), which is highlighted through {@link FindContext}.
 */
import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useAtomValue } from 'jotai';
import { defaultRangeExtractor, measureElement as measureRow, useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import type { Thread } from '../../../../shared/thread/schema';
import { useApp } from '../../state/context';
import { distinctKeys } from '../../state/repeated-ids';
import { messageJumpAtom } from '../../state/message-jump';
import { MessageRow } from './MessageRow';
import type { WakeQueue } from '../../ui/wake-queue';
import { estimateMessageHeight } from './message-size';
import { keepsReaderInPlace, listScrollTo } from './list-scroll';
import { FindContext, type FindState } from './find-context';

/**
 * Threads up to this many messages keep every row mounted (as LLM Space does, and as the
 * browser's own find expects); longer ones mount only the rows near the viewport.
 */
export const MOUNT_ALL_UP_TO = 20;
/** Space between two messages, px. */
const GAP = 4;
/** How long a jumped-to message stays outlined, ms. */
const FLASH_MS = 1500;

export interface MessageListProps {
  thread: Thread;
  readOnly: boolean;
  /** The scroll area's viewport the list scrolls in. */
  scrollRef: RefObject<HTMLDivElement | null>;
  find: FindState;
  /** Makes the rows' editors in turn (shared with the rest of the playground). */
  queue: WakeQueue;
}

/** Marks the element the list scrolls in (the playground's scroll area), for {@link MessageList} to find. */
export const SCROLLER_ATTRIBUTE = 'data-message-scroller';

/**
 * The scroll area's size, as the virtualizer's own observer reports it (`clientWidth`,
 * `clientHeight`) but only from a ResizeObserver, after layout: the default reads it at once
 * when the list mounts, which lays out the whole page inside the task that mounts it.
 */
function observeRect(v: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void): (() => void) | undefined {
  const el = v.scrollElement;
  if (!el) return undefined;
  const ro = new ResizeObserver(() => cb({ width: el.clientWidth, height: el.clientHeight }));
  ro.observe(el);
  return () => ro.disconnect();
}

/** `next`, or `prev` when it holds the same keys (so the virtualizer keeps its measurements' order). */
function sameKeys(prev: readonly string[], next: string[]): readonly string[] {
  return prev.length === next.length && prev.every((k, i) => k === next[i]) ? prev : next;
}

/**
 * A row's height. A row still showing its placeholder has the height the placeholder was given:
 * read from its style, not from the layout, so mounting rows forces no layout of the page.
 */
function measure(el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLDivElement, Element>): number {
  const placeholder = el.firstElementChild as HTMLElement | null;
  if (!entry && placeholder?.classList.contains('sw-row-placeholder')) {
    const h = Math.round(parseFloat(placeholder.style.height));
    if (h > 0) return h;
  }
  return measureRow(el, entry, v);
}

/** Offset of `el`'s top in the scrolled content of `scroller`, px. */
function offsetIn(el: HTMLElement, scroller: HTMLElement): number {
  return el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/** The message list. */
export function MessageList({ thread, readOnly, scrollRef, find, queue }: MessageListProps) {
  const app = useApp();
  const messages = thread.context.messages;
  // The same array while the ids stay the same (an edit of a message's content changes none).
  const lastKeys = useRef<readonly string[]>([]);
  const keys = useMemo(() => sameKeys(lastKeys.current, distinctKeys(messages.map((m) => m.id))), [messages]);
  useLayoutEffect(() => {
    lastKeys.current = keys;
  }, [keys]);
  const listRef = useRef<HTMLDivElement>(null);
  // The scroll area's ref is set after this list's first layout effects: find it in the DOM then.
  const scrollerOf = () => scrollRef.current ?? listRef.current?.closest<HTMLDivElement>(`[${SCROLLER_ATTRIBUTE}]`) ?? null;
  // A row's estimate is taken once, when it is first seen: a message that changes while it is not
  // mounted keeps its place in the layout (it is measured, and the scroll corrected, when it
  // mounts), so nothing below it moves under the reader.
  const estimates = useRef(new Map<string, number>());
  const [margin, setMargin] = useState(0);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const [flash, setFlash] = useState<string | null>(null);
  const invalid = useAtomValue(app.invalidFieldsAtom);

  // Rows kept mounted wherever the list is scrolled: the focused one, and those with arguments
  // that do not parse yet (their text lives only in the editor until it does).
  const pinned = useMemo(() => {
    const out: number[] = [];
    const calls = new Set([...invalid].filter((k) => k.startsWith('args.')).map((k) => k.slice(5)));
    messages.forEach((m, i) => {
      if (keys[i] === focusedKey || (calls.size && m.role === 'assistant' && m.toolCalls?.some((c) => calls.has(c.id)))) out.push(i);
    });
    return out;
  }, [messages, keys, invalid, focusedKey]);
  const rangeExtractor = useCallback((range: Range) => {
    if (range.count <= MOUNT_ALL_UP_TO) return Array.from({ length: range.count }, (_, i) => i);
    const base = defaultRangeExtractor(range);
    if (!pinned.length) return base;
    return [...new Set([...base, ...pinned])].sort((a, b) => a - b);
  }, [pinned]);
  const getItemKey = useCallback((i: number) => keys[i], [keys]);
  const estimateSize = useCallback((i: number) => {
    let e = estimates.current.get(keys[i]);
    if (e === undefined) {
      e = estimateMessageHeight(messages[i]);
      estimates.current.set(keys[i], e);
    }
    return e;
  }, [messages, keys]);

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: scrollerOf,
    estimateSize,
    getItemKey,
    rangeExtractor,
    measureElement: measure,
    observeElementRect: observeRect,
    scrollToFn: listScrollTo,
    overscan: 2,
    gap: GAP,
    scrollMargin: margin,
    anchorTo: 'end',
    followOnAppend: false,
    directDomUpdates: true,
    useFlushSync: false,
    // Until the scroll area's observer reports its size, assume it is as tall as the window: the
    // first render already has its rows.
    initialRect: { width: 0, height: window.innerHeight },
  });

  const focused = useRef(focusedKey);
  focused.current = focusedKey;
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, v) => keepsReaderInPlace(item, v.scrollOffset ?? 0, focused.current);

  // Where the list starts in the scrolled content: the sections above it change size.
  useLayoutEffect(() => {
    const scroller = scrollerOf();
    const list = listRef.current;
    if (!scroller || !list) return;
    // Measured when the observer reports (after layout, and at once when observing starts), not
    // here: reading the layout now would lay out the whole page inside the mounting task. Not a
    // synchronous render either: the rows it brings in mount in slices like the rest.
    const update = () => {
      const next = Math.round(offsetIn(list, scroller));
      startTransition(() => setMargin(next));
    };
    const ro = new ResizeObserver(update);
    ro.observe(scroller.firstElementChild ?? scroller);
    return () => ro.disconnect();
    // Once: the scroll area and the list live as long as this component.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A run's reply keeps its question above it when the question takes at most a third of the
  // scroll area (docs/ui.md#after-run); a longer one would push the reply down, so the reply
  // goes to the top instead.
  const jumpTarget = (i: number, withPrevious: boolean, text: boolean): number => {
    if (!withPrevious || text || i === 0) return i;
    const before = virtualizer.measurementsCache[i - 1];
    const room = scrollerOf()?.clientHeight ?? window.innerHeight;
    return before && before.size <= room / 3 ? i - 1 : i;
  };
  // A jump from elsewhere in the window (the execution tree, the detail panel).
  const jump = useAtomValue(messageJumpAtom, { store: app.store });
  useEffect(() => {
    if (!jump) return;
    const i = messages.findIndex((m) => m.id === jump.messageId);
    if (i < 0) return;
    const text = jump.focus === 'text';
    // A message just added comes into view by the shortest scroll, without the outline: the
    // person asked for it where they are. A jump from elsewhere puts the message at the top.
    virtualizer.scrollToIndex(jumpTarget(i, jump.withPrevious === true, text), { align: text ? 'auto' : 'start' });
    if (!text) setFlash(keys[i]);
    if (jump.focus) {
      // The row mounts once the scroll reaches it, its card in turn (MessageRow.tsx). Focusing
      // the text's static stand-in makes its editor at once, which takes the focus.
      const target = `[data-row-key="${CSS.escape(keys[i])}"] ${text ? '[data-message-text] [role="textbox"]' : '[data-message-card]'}`;
      let frames = 0;
      const tryFocus = () => {
        const el = listRef.current?.querySelector<HTMLElement>(target);
        if (el) el.focus({ preventScroll: true });
        else if (frames++ < 120) requestAnimationFrame(tryFocus);
      };
      requestAnimationFrame(tryFocus);
    }
    // Only a new request moves the list, not a change of the thread.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jump]);
  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => setFlash(null), FLASH_MS);
    return () => clearTimeout(t);
  }, [flash]);

  // The current find match: its message into view, then the match itself within it.
  const current = find.current;
  useEffect(() => {
    const scroller = scrollerOf();
    if (!current || !scroller) return;
    const markOf = () => listRef.current?.querySelector(`[data-row-key="${CSS.escape(keys[current.index] ?? '')}"] [data-find-current]`);
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      const v = scroller.getBoundingClientRect();
      return r.top >= v.top && r.bottom <= v.bottom;
    };
    const mark = markOf();
    if (mark) {
      if (!shown(mark)) mark.scrollIntoView({ block: 'center' });
      return;
    }
    virtualizer.scrollToIndex(current.index, { align: 'center' });
    // A tall message centred may leave its match out of view: once the row is drawn and the
    // scroll has settled, bring the match itself to the middle.
    let frames = 0;
    let live = true;
    const reveal = () => {
      if (!live) return;
      const m = markOf();
      if (m && frames > 2) {
        if (!shown(m)) m.scrollIntoView({ block: 'center' });
      } else if (frames++ < 120) requestAnimationFrame(reveal);
    };
    requestAnimationFrame(reveal);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  const range = virtualizer.range;
  const onFocus = (e: React.FocusEvent) => {
    const key = (e.target as Element).closest('[data-row-key]')?.getAttribute('data-row-key') ?? null;
    if (key !== focusedKey) setFocusedKey(key);
  };
  const onBlur = (e: React.FocusEvent) => {
    if (!listRef.current?.contains(e.relatedTarget as Node | null)) setFocusedKey(null);
  };
  return (
    <FindContext.Provider value={find}>
      <div ref={listRef} role="list" aria-label="Messages" onFocus={onFocus} onBlur={onBlur}>
        <div ref={virtualizer.containerRef} style={{ position: 'relative', width: '100%' }}>
          {virtualizer.getVirtualItems().map((v) => (
            <div key={v.key} data-index={v.index} data-row-key={keys[v.index]} ref={virtualizer.measureElement} role="listitem"
              style={{ position: 'absolute', top: 0, left: 0, width: '100%' }}>
              <MessageRow thread={thread} index={v.index} readOnly={readOnly} rowKey={keys[v.index]} queue={queue} jumpTarget={flash === keys[v.index]} placeholderHeight={v.size}
                inView={!!range && v.index >= range.startIndex && v.index <= range.endIndex} />
            </div>
          ))}
        </div>
      </div>
    </FindContext.Provider>
  );
}
