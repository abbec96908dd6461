/**
 * The execution tree of the shown run: role="tree", one treeitem per visible node (flattened
 * with aria-level / posinset / setsize / expanded), keyboard navigable (tree-keys.ts).
 * Virtualised with react-virtual: only the rows in view (plus overscan and the focused row)
 * are mounted, so a 10,000-node tree costs what its ~30 visible rows cost. The visible rows
 * are kept incrementally (visible-rows.ts); each row subscribes to its own node atom and gets
 * only primitive props and stable callbacks, so a streaming node re-renders only its row.
 * While the run streams, the view follows its newest nodes (they arrive at the end of the
 * tree) as long as it is scrolled to the end.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type CSSProperties } from 'react';
import { useAtomValue } from 'jotai';
import { Text } from '@mantine/core';
import { defaultRangeExtractor, useVirtualizer, type Range, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';
import { isTerminal } from '../../../../shared/protocol/status';
import { useApp } from '../../state/context';
import { NodeRow, type RowActions } from './NodeRow';
import { VisibleRows } from './visible-rows';
import { treeKeyAction } from './tree-keys';
import { detachedRow } from './detached-row';

export interface ExecutionTreeProps {
  runId: string;
  /**
   * Shows the thread message a node produced or read ("jump to message"). Passed through to
   * every row; rows offer the action only when it is given.
   */
  onOpenMessage?: (nodeId: string) => void;
}

/** A row with only a header line; rows are measured once mounted. */
const ESTIMATED_ROW_PX = 30;
/** How close to the end (px) still counts as "at the end" for following new nodes. */
const FOLLOW_SLACK_PX = 24;
/** While following, rows past the view mounted ahead of the scroll to the end (new rows in a frame). */
const FOLLOW_TAIL_ROWS = 32;

/**
 * Row heights come from the virtualizer's ResizeObserver entries only. Reading a mounting
 * row's offsetHeight would force one layout per new row (the default), which dominates the
 * frame when nodes arrive fast; the entry arrives in the same frame, before paint.
 */
function measureRow(el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLDivElement, Element>): number {
  if (entry) {
    const box = entry.borderBoxSize?.[0];
    return box ? Math.round(box.blockSize) : (el as HTMLElement).offsetHeight;
  }
  return v.itemSizeCache.get(v.options.getItemKey(v.indexFromElement(el))) ?? ESTIMATED_ROW_PX;
}

/** Tree of one run. */
export function ExecutionTree({ runId, onOpenMessage }: ExecutionTreeProps) {
  const app = useApp();
  const tree = useAtomValue(app.stream.runTreeAtom(runId));
  const selected = useAtomValue(app.selectedAtom);
  const runs = useAtomValue(app.stream.runsAtom);
  const info = runs.find((r) => r.runId === runId);
  const live = !!info && !info.stored && !isTerminal(info.status);
  const [rows] = useState(() => new VisibleRows());
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  // Catching up with the structure is idempotent (it consumes new arrivals once), so doing it
  // here keeps the rows in step with the tree atom that triggered this render.
  const structure = tree?.structure;
  rows.sync(structure);
  const ids = rows.snapshot();
  const viewport = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<string | null>(null);

  const selectedId = selected?.runId === runId ? selected.nodeId : undefined;
  const activeId = selectedId !== undefined && rows.isVisible(selectedId) ? selectedId : ids[0];
  const activeIndex = activeId === undefined ? -1 : rows.indexOf(activeId);

  const getItemKey = useCallback((i: number) => ids[i], [ids]);
  // Following: while the run is live and the view is at its end, every commit (new rows, a
  // row that grew) keeps it at the end. Scrolling up away from the end, or folding a node,
  // stops it; scrolling back to the end resumes it. Only a move up counts as leaving: our own
  // scrolls only go down, and rows growing below do not move the offset. All from the
  // virtualizer's own numbers: reading the DOM here would force a layout per commit.
  const following = useRef(true);
  const lastOffset = useRef<number | null>(null);
  const follow = live && following.current;
  // The focused row stays mounted when scrolled out of view, so keyboard focus is never lost;
  // while following, the rows just past the view are mounted too, for the scroll to the end.
  const rangeExtractor = useCallback(
    (range: Range) => {
      let out = defaultRangeExtractor(range);
      if (follow) {
        const from = (out[out.length - 1] ?? -1) + 1;
        const to = Math.min(range.count, range.endIndex + 1 + FOLLOW_TAIL_ROWS);
        for (let i = from; i < to; i++) out.push(i);
      }
      if (activeIndex >= 0 && !out.includes(activeIndex)) out = [...out, activeIndex].sort((a, b) => a - b);
      return out;
    },
    [activeIndex, follow],
  );
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    measureElement: measureRow,
    overscan: 3,
    // A scroll renders the rows in a task of its own, not inside the scroll event: there it was
    // added to the frame's own style, layout and paint (11-15 ms while a run streams and the
    // view follows it).
    useFlushSync: false,
    getItemKey,
    rangeExtractor,
    onChange: (v) => {
      const offset = v.scrollOffset ?? 0;
      const before = lastOffset.current;
      if (offset === before) return;
      lastOffset.current = offset;
      const atEnd = v.getTotalSize() - (v.scrollRect?.height ?? 0) - offset <= FOLLOW_SLACK_PX;
      if (atEnd) following.current = true;
      else if (before !== null && offset < before) following.current = false;
    },
  });
  // Following: scrolled to the end in the next animation frame, once per frame however many
  // commits it follows. Not here: setting scrollTop lays out the page at once, so written in a
  // commit it made every commit lay out the whole window (the longest task of a live run); in
  // the frame's callback the page is laid out once, as the frame does anyway. The rows at the
  // end are already mounted (see rangeExtractor), so nothing waits for the scroll event.
  const followFrame = useRef(0);
  useLayoutEffect(() => {
    if (!follow || ids.length === 0 || followFrame.current) return;
    followFrame.current = requestAnimationFrame(() => {
      followFrame.current = 0;
      const el = viewport.current;
      if (!el || !following.current) return;
      const end = Math.max(0, virtualizer.getTotalSize() - (virtualizer.scrollRect?.height ?? 0));
      if (end - (virtualizer.scrollOffset ?? 0) > 1) el.scrollTop = end;
    });
  });
  useEffect(() => () => cancelAnimationFrame(followFrame.current), []);

  // Keyboard moves focus after the render that mounted the target row.
  useLayoutEffect(() => {
    const id = pendingFocus.current;
    if (id === null) return;
    const mounted = viewport.current?.querySelectorAll<HTMLElement>('[role="treeitem"]') ?? [];
    const el = [...mounted].find((e) => e.dataset.nodeId === id);
    if (el) {
      pendingFocus.current = null;
      el.focus({ preventScroll: true });
    }
  });

  // Stable callbacks (they read current state at call time), so memoised rows skip re-rendering.
  const actions = useMemo<RowActions>(() => {
    const select = (id: string) => app.store.set(app.selectedAtom, { runId, nodeId: id });
    const toggle = (id: string) => {
      following.current = false;
      rows.toggle(id);
      rerender();
    };
    const focusRow = (index: number) => {
      const id = rows.id(index);
      if (id === undefined) return;
      select(id);
      pendingFocus.current = id;
      virtualizer.scrollToIndex(index, { align: 'auto' });
      rerender();
    };
    return {
      onSelect: select,
      onToggle: toggle,
      onKey: (e, id) => {
        const s = app.store.get(app.stream.runTreeAtom(runId))?.structure;
        const action = s && treeKeyAction(e.key, id, rows, s);
        if (!action) return;
        e.preventDefault();
        if ('focus' in action) focusRow(action.focus);
        else if ('expand' in action) toggle(action.expand);
        else if ('collapse' in action) toggle(action.collapse);
        else select(action.select);
      },
    };
  }, [app, runId, rows, virtualizer]);

  if (!structure) return <Text size="sm" c="dimmed" p="xs">Waiting for the run's first node…</Text>;
  const items = virtualizer.getVirtualItems();
  const renderRow = (v: VirtualItem, style?: CSSProperties) => {
    const id = ids[v.index];
    const meta = structure.meta(id);
    if (!meta) return null;
    const siblings = structure.siblings(id);
    return (
      <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} style={style}>
        <NodeRow
          nodeId={id}
          runId={runId}
          kind={meta.kind}
          name={meta.name}
          level={rows.levelAt(v.index)}
          posinset={structure.position(id) + 1}
          setsize={siblings.length}
          hasChildren={structure.children(id).length > 0}
          expanded={!rows.isCollapsed(id)}
          selected={id === selectedId}
          tabbable={id === activeId}
          actions={actions}
          onOpenMessage={onOpenMessage}
        />
      </div>
    );
  };
  // The rows in range flow one below the other in a block placed at the first one's offset, so
  // a row that grows while its node streams pushes the rows below it down in the same layout
  // (absolutely placed rows overlapped the next one until the virtualizer's next render). The
  // focused row kept mounted out of range is placed on its own, out of the flow. Every row stays
  // a child of the one block in index order, so a row never changes parent or order as it goes
  // in and out of range: moving the focused row's element would drop its keyboard focus.
  const detached = detachedRow(items, activeIndex);
  const blockStart = (items[0] === detached ? items[1] : items[0])?.start ?? 0;
  return (
    <div ref={viewport} style={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowAnchor: 'none' }}>
      <div role="tree" aria-label="Execution tree" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <div style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${blockStart}px)` }}>
          {items.map((v) => renderRow(v, v === detached ? { position: 'absolute', left: 0, right: 0, top: v.start - blockStart } : undefined))}
        </div>
      </div>
    </div>
  );
}

