// @vitest-environment jsdom
/**
 * The execution tree's visible rows (renderer/src/features/execution/visible-rows.ts), kept
 * incrementally over the incremental run structure (renderer/src/state/run-structure.ts),
 * against a naive walk of the same nodes after any sequence of arrivals, moves, renames and
 * folds, with the view catching up at arbitrary points.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RunStructure } from '../../state/run-structure';
import { VisibleRows } from './visible-rows';
import { treeKeyAction } from './tree-keys';

/** Ids include ones a plain object would confuse with its prototype's keys. */
const IDS = ['run', 'l1', 't1', 't2', 'l2', 't3', 'a', 'b', 'c', 'd', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'x y'];

type Op = { t: 'node'; id: string; parent: string | undefined; name: string } | { t: 'toggle'; id: string } | { t: 'sync' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('node' as const), id: fc.constantFrom(...IDS), parent: fc.option(fc.constantFrom(...IDS), { nil: undefined }), name: fc.constantFrom('m', 'n') }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('toggle' as const), id: fc.constantFrom(...IDS) }) },
  { weight: 2, arbitrary: fc.constant({ t: 'sync' as const }) },
);

/** The tree as the old renderer derived it: parents by id, children in first-arrival order, all from scratch. */
class Naive {
  readonly nodes = new Map<string, string | undefined>();
  readonly collapsed = new Set<string>();

  parent(id: string): string | undefined {
    const p = this.nodes.get(id);
    return p && this.nodes.has(p) ? p : undefined;
  }

  /** Children of a node; for `undefined`, the roots (nodes without a known parent). */
  children(id: string | undefined): string[] {
    return [...this.nodes.keys()].filter((k) => this.parent(k) === id);
  }

  rows(): { id: string; level: number; posinset: number; setsize: number; depth: number }[] {
    const out: { id: string; level: number; posinset: number; setsize: number; depth: number }[] = [];
    const walk = (ids: string[], level: number) =>
      ids.forEach((id, i) => {
        out.push({ id, level, posinset: i + 1, setsize: ids.length, depth: level });
        if (!this.collapsed.has(id)) walk(this.children(id), level + 1);
      });
    walk(this.children(undefined), 1);
    return out;
  }
}

function shown(rows: VisibleRows, s: RunStructure) {
  return rows.snapshot().map((id, i) => ({ id, level: rows.levelAt(i), posinset: s.position(id) + 1, setsize: s.siblings(id).length, depth: s.depth(id) + 1 }));
}

describe('visible rows of the execution tree', () => {
  it('equal a naive walk after any sequence of arrivals, moves, renames and folds', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        const s = new RunStructure('r');
        const rows = new VisibleRows();
        const naive = new Naive();
        for (const op of ops) {
          if (op.t === 'node') {
            s.note({ id: op.id, parentId: op.parent, kind: 'llm', name: op.name });
            naive.nodes.set(op.id, op.parent);
          } else if (op.t === 'toggle') {
            rows.sync(s);
            rows.toggle(op.id);
            if (!naive.collapsed.delete(op.id)) naive.collapsed.add(op.id);
            expect(shown(rows, s)).toEqual(naive.rows());
          } else {
            rows.sync(s);
            expect(shown(rows, s)).toEqual(naive.rows());
          }
        }
        rows.sync(s);
        expect(shown(rows, s)).toEqual(naive.rows());
        for (const r of naive.rows()) expect(rows.indexOf(r.id)).toBe(rows.snapshot().indexOf(r.id));
      }),
      { numRuns: 2000 },
    );
  });

  it('splices arrivals in, keeps the same snapshot while nothing changed, hides arrivals under a collapsed node', () => {
    const s = new RunStructure('r');
    const rows = new VisibleRows();
    s.note({ id: 'run', kind: 'run', name: 'run' });
    s.note({ id: 'l1', parentId: 'run', kind: 'llm', name: 'm' });
    rows.sync(s);
    const before = rows.version;
    s.note({ id: 't1', parentId: 'l1', kind: 'tool', name: 'get-sum' });
    s.note({ id: 'l2', parentId: 'run', kind: 'llm', name: 'm' });
    rows.sync(s);
    expect(rows.snapshot()).toEqual(['run', 'l1', 't1', 'l2']);
    expect(rows.version).toBe(before + 1);
    const snap = rows.snapshot();
    rows.sync(s);
    expect(rows.snapshot()).toBe(snap); // nothing new: same array, same version
    rows.collapse('l1');
    expect(rows.snapshot()).toEqual(['run', 'l1', 'l2']);
    // A node arriving under a collapsed node stays hidden until it is expanded.
    s.note({ id: 't2', parentId: 'l1', kind: 'tool', name: 'echo' });
    rows.sync(s);
    expect(rows.snapshot()).toEqual(['run', 'l1', 'l2']);
    rows.expand('l1');
    expect(rows.snapshot()).toEqual(['run', 'l1', 't1', 't2', 'l2']);
  });

  it('handles a 10,000-node ReAct tree and a 10,000-deep chain (no recursion limit)', () => {
    const s = new RunStructure('r');
    s.note({ id: 'run', kind: 'run', name: 'run' });
    for (let k = 0; k < 3333; k++) {
      s.note({ id: `l${k}`, parentId: 'run', kind: 'llm', name: 'm' });
      s.note({ id: `a${k}`, parentId: `l${k}`, kind: 'tool', name: 'a' });
      s.note({ id: `b${k}`, parentId: `l${k}`, kind: 'tool', name: 'b' });
    }
    const rows = new VisibleRows();
    rows.sync(s);
    expect(rows.length).toBe(10_000);
    rows.collapse('run');
    expect(rows.snapshot()).toEqual(['run']);
    rows.expand('run');
    expect(rows.length).toBe(10_000);
    expect(rows.snapshot()[9999]).toBe('b3332');
    expect(rows.levelAt(9999)).toBe(3);

    const chain = new RunStructure('c');
    for (let k = 0; k < 10_000; k++) chain.note({ id: `n${k}`, parentId: k ? `n${k - 1}` : undefined, kind: 'agent', name: 'a' });
    const deep = new VisibleRows();
    deep.sync(chain);
    expect(deep.length).toBe(10_000);
    expect(deep.levelAt(9999)).toBe(10_000);
    deep.collapse('n0');
    expect(deep.length).toBe(1);
    deep.expand('n0');
    expect(deep.length).toBe(10_000);
  });
});

describe('tree keyboard (WAI-ARIA tree view)', () => {
  const s = new RunStructure('r');
  for (const [id, parentId] of [['run', undefined], ['l1', 'run'], ['t1', 'l1'], ['t2', 'l1'], ['l2', 'run']] as const) s.note({ id, parentId, kind: 'llm', name: 'm' });

  it('moves between rows, opens and closes, goes to the first child and to the parent', () => {
    const rows = new VisibleRows();
    rows.sync(s);
    expect(treeKeyAction('ArrowDown', 'run', rows, s)).toEqual({ focus: 1 });
    expect(treeKeyAction('ArrowUp', 'run', rows, s)).toBeUndefined();
    expect(treeKeyAction('ArrowDown', 'l2', rows, s)).toBeUndefined();
    expect(treeKeyAction('End', 'run', rows, s)).toEqual({ focus: 4 });
    expect(treeKeyAction('Home', 'l2', rows, s)).toEqual({ focus: 0 });
    // Right on an open node goes to its first child; on a leaf it does nothing.
    expect(treeKeyAction('ArrowRight', 'l1', rows, s)).toEqual({ focus: 2 });
    expect(treeKeyAction('ArrowRight', 't1', rows, s)).toBeUndefined();
    // Left on an open node closes it; on a leaf or a closed node it goes to the parent.
    expect(treeKeyAction('ArrowLeft', 'l1', rows, s)).toEqual({ collapse: 'l1' });
    expect(treeKeyAction('ArrowLeft', 't2', rows, s)).toEqual({ focus: 1 });
    rows.collapse('l1');
    expect(treeKeyAction('ArrowLeft', 'l1', rows, s)).toEqual({ focus: 0 });
    expect(treeKeyAction('ArrowRight', 'l1', rows, s)).toEqual({ expand: 'l1' });
    expect(treeKeyAction('ArrowLeft', 'run', rows, s)).toEqual({ collapse: 'run' });
    expect(treeKeyAction('Enter', 'l2', rows, s)).toEqual({ select: 'l2' });
    expect(treeKeyAction('a', 'l2', rows, s)).toBeUndefined();
  });
});
