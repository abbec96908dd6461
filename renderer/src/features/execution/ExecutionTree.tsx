/**
 * The execution tree of the shown run: role="tree", one treeitem per node nested to any depth
 * (flattened with aria-level / posinset / setsize), keyboard navigable. Structure comes from
 * the run's tree atom; long trees are virtualized.
 */
import { useMemo, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Box, ScrollArea, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useApp } from '../../state/context';
import type { RunStructure } from '../../state/stream-store';
import { NodeRow, type RowProps } from './NodeRow';

type Row = Omit<RowProps, 'selected' | 'onToggle' | 'onSelect' | 'onKey' | 'expanded'>;

/** Visible rows of a tree in display order. */
export function flatten(tree: RunStructure, collapsed: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (ids: string[], level: number) => {
    ids.forEach((id, i) => {
      const m = tree.meta[id];
      const kids = tree.children[id] ?? [];
      rows.push({ nodeId: id, runId: tree.runId, kind: m.kind, name: m.name, level, posinset: i + 1, setsize: ids.length, hasChildren: kids.length > 0 });
      if (kids.length && !collapsed.has(id)) walk(kids, level + 1);
    });
  };
  walk(tree.roots, 1);
  return rows;
}

const VIRTUAL_FROM = 150;

/** Tree of one run. */
export function ExecutionTree({ runId }: { runId: string }) {
  const app = useApp();
  const tree = useAtomValue(app.stream.runTreeAtom(runId));
  const selected = useAtomValue(app.selectedAtom);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const rows = useMemo(() => (tree ? flatten(tree, collapsed) : []), [tree, collapsed]);
  const viewport = useRef<HTMLDivElement>(null);
  const virtual = rows.length >= VIRTUAL_FROM;
  const virtualizer = useVirtualizer({ count: virtual ? rows.length : 0, getScrollElement: () => viewport.current, estimateSize: () => 44, overscan: 12 });

  const toggle = (id: string) => setCollapsed((c) => { const n = new Set(c); if (n.has(id)) n.delete(id); else n.add(id); return n; });
  const select = (id: string) => app.store.set(app.selectedAtom, { runId, nodeId: id });
  const onKey = (e: React.KeyboardEvent, id: string) => {
    const i = rows.findIndex((r) => r.nodeId === id);
    const focus = (j: number) => {
      const r = rows[j];
      if (!r) return;
      select(r.nodeId);
      if (virtual) virtualizer.scrollToIndex(j);
      requestAnimationFrame(() => (viewport.current?.querySelector(`[data-node-id="${CSS.escape(r.nodeId)}"]`) as HTMLElement | null)?.focus());
    };
    const row = rows[i];
    if (e.key === 'ArrowDown') focus(i + 1);
    else if (e.key === 'ArrowUp') focus(i - 1);
    else if (e.key === 'Home') focus(0);
    else if (e.key === 'End') focus(rows.length - 1);
    else if (e.key === 'ArrowRight' && row?.hasChildren && collapsed.has(id)) toggle(id);
    else if (e.key === 'ArrowLeft' && row?.hasChildren && !collapsed.has(id)) toggle(id);
    else if (e.key === 'Enter' || e.key === ' ') select(id);
    else return;
    e.preventDefault();
  };
  const render = (r: Row) => (
    <NodeRow key={r.nodeId} {...r} expanded={!collapsed.has(r.nodeId)} selected={selected?.nodeId === r.nodeId} onToggle={toggle} onSelect={select} onKey={onKey} />
  );
  if (!tree) return <Text size="sm" c="dimmed" p="xs">Waiting for the run's first node…</Text>;
  return (
    <ScrollArea viewportRef={viewport} style={{ flex: 1, minHeight: 0 }} type="auto">
      <Box role="tree" aria-label="Execution tree">
        {!virtual && rows.map(render)}
        {virtual && (
          <Box style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => (
              <Box key={v.key} data-index={v.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}>
                {render(rows[v.index])}
              </Box>
            ))}
          </Box>
        )}
      </Box>
    </ScrollArea>
  );
}
