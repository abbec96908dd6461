/**
 * Keyboard of the execution tree, after the WAI-ARIA tree view pattern
 * (https://www.w3.org/WAI/ARIA/apg/patterns/treeview/): Up/Down move between visible rows,
 * Right opens a closed node or moves to its first child, Left closes an open node or moves to
 * its parent, Home/End go to the first/last row, Enter and Space select.
 */
import type { RunStructure } from '../../state/run-structure';
import type { VisibleRows } from './visible-rows';

/** What a key does on a row: move focus to a row index, fold a node, or select it. */
export type TreeKeyAction = { focus: number } | { expand: string } | { collapse: string } | { select: string };

/** The action of `key` on the row of node `id`; undefined when the key does nothing there. */
export function treeKeyAction(key: string, id: string, rows: VisibleRows, structure: RunStructure): TreeKeyAction | undefined {
  const i = rows.indexOf(id);
  if (i < 0) return undefined;
  const parent = structure.children(id).length > 0;
  switch (key) {
    case 'ArrowDown':
      return i + 1 < rows.length ? { focus: i + 1 } : undefined;
    case 'ArrowUp':
      return i > 0 ? { focus: i - 1 } : undefined;
    case 'Home':
      return { focus: 0 };
    case 'End':
      return { focus: rows.length - 1 };
    case 'ArrowRight':
      if (!parent) return undefined;
      return rows.isCollapsed(id) ? { expand: id } : { focus: i + 1 };
    case 'ArrowLeft': {
      if (parent && !rows.isCollapsed(id)) return { collapse: id };
      const up = structure.parentOf(id);
      const j = up === undefined ? -1 : rows.indexOf(up);
      return j >= 0 ? { focus: j } : undefined;
    }
    case 'Enter':
    case ' ':
      return { select: id };
    default:
      return undefined;
  }
}
