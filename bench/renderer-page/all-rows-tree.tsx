/**
 * Baseline of the tree benchmarks: the execution tree without virtualisation, as the
 * renderer drew trees below its old 150-row threshold — every visible row mounted (the real
 * NodeRow), the rows re-derived by walking the whole tree on every render, and new callbacks
 * on every render (so every row re-renders whenever the tree does). ArrowLeft / ArrowRight on
 * a row fold it, as in the real tree.
 */
import { useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { ScrollArea } from '@mantine/core';
import { useApp } from '../../renderer/src/state/context';
import type { RunStructure } from '../../renderer/src/state/run-structure';
import { walkDepthFirst } from '../../shared/depth-first';
import { NodeRow, type RowActions } from '../../renderer/src/features/execution/NodeRow';

interface Row {
  id: string;
  level: number;
  posinset: number;
  setsize: number;
  hasChildren: boolean;
}

/** Every visible row, depth first. */
function walk(s: RunStructure, collapsed: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  walkDepthFirst(s.roots, (id) => (collapsed.has(id) ? undefined : s.children(id)), (id, level, i, sibs) => {
    rows.push({ id, level, posinset: i + 1, setsize: sibs.length, hasChildren: s.children(id).length > 0 });
  });
  return rows;
}

/** Every row of one run's tree, mounted. */
export function AllRowsTree({ runId }: { runId: string }) {
  const app = useApp();
  const tree = useAtomValue(app.stream.runTreeAtom(runId));
  const selected = useAtomValue(app.selectedAtom);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const rows = useMemo(() => (tree ? walk(tree.structure, collapsed) : []), [tree, collapsed]);
  const toggle = (id: string) =>
    setCollapsed((c) => {
      const n = new Set(c);
      if (!n.delete(id)) n.add(id);
      return n;
    });
  const actions: RowActions = {
    onToggle: toggle,
    onSelect: (id) => app.store.set(app.selectedAtom, { runId, nodeId: id }),
    onKey: (e, id) => {
      if ((e.key === 'ArrowLeft' && !collapsed.has(id)) || (e.key === 'ArrowRight' && collapsed.has(id))) toggle(id);
    },
  };
  if (!tree) return null;
  return (
    <ScrollArea style={{ flex: 1, minHeight: 0 }} type="auto">
      <div role="tree" aria-label="Execution tree">
        {rows.map((r) => {
          const m = tree.structure.meta(r.id)!;
          return (
            <NodeRow key={r.id} nodeId={r.id} runId={runId} kind={m.kind} name={m.name} level={r.level} posinset={r.posinset} setsize={r.setsize} hasChildren={r.hasChildren}
              expanded={!collapsed.has(r.id)} selected={selected?.nodeId === r.id} tabbable={selected?.nodeId === r.id} actions={actions} />
          );
        })}
      </div>
    </ScrollArea>
  );
}
