/**
 * The execution tree at 100,000 nodes, wide (a ReAct run) and deep (a chain nested 100,000
 * levels), through the real reducer and structure: pushes into the StreamStore, its frame
 * flush into the RunStructure, the VisibleRows over it. Nodes arrive all at once, children
 * before their parents, and one per frame as a live run grows. Nothing in this path may
 * recurse per level or per node, nor cost per node what grows with the tree (docs/architecture.md#the-execution-tree).
 */
import { describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import type { ExecNode } from '../../../../shared/protocol/nodes';
import { StreamStore } from '../../state/stream-store';
import type { RunStructure } from '../../state/run-structure';
import { VisibleRows } from './visible-rows';
import { treeKeyAction } from './tree-keys';

const N = 100_000;
const RUN = 'r';

function node(id: string, parentId: string | undefined, kind: ExecNode['kind']): ExecNode {
  return { id, runId: RUN, ...(parentId !== undefined && { parentId }), kind, name: kind, status: 'running', startedAt: 0 };
}

/** Node `i` of a chain: each one the only child of the one before. */
const chainNode = (i: number) => node(`n${i}`, i ? `n${i - 1}` : undefined, i ? 'agent' : 'run');

/** Node `i` of a ReAct run: the run node, then per turn an llm node and its two tool calls. */
function reactNode(i: number): ExecNode {
  if (i === 0) return node('run', undefined, 'run');
  const k = Math.floor((i - 1) / 3);
  const r = (i - 1) % 3;
  return r === 0 ? node(`l${k}`, 'run', 'llm') : node(`${r === 1 ? 'a' : 'b'}${k}`, `l${k}`, 'tool');
}

/** A store whose frames are flushed by hand, and the tree's rows kept as the ExecutionTree keeps them. */
function setup() {
  const store = new StreamStore(createStore(), { requestSnapshot: () => {}, schedule: () => {} });
  const rows = new VisibleRows();
  const frame = (): RunStructure => {
    store.flush();
    const s = (store as unknown as { trees: Map<string, RunStructure> }).trees.get(RUN)!;
    rows.sync(s);
    return s;
  };
  const push = (nodes: ExecNode[]) => store.apply({ v: 1, type: 'tree_update', runId: RUN, nodes: nodes as [ExecNode, ...ExecNode[]] });
  return { store, rows, frame, push };
}

function expectChainRows(rows: VisibleRows, n: number) {
  expect(rows.length).toBe(n);
  for (const i of [0, 1, n >> 1, n - 1]) {
    expect(rows.id(i)).toBe(`n${i}`);
    expect(rows.levelAt(i)).toBe(i + 1);
  }
}

// 100,000 nodes through the store take seconds on a loaded machine; the bound is not a timing target.
describe('the execution tree at 100,000 nodes', { timeout: 120_000 }, () => {
  it('a ReAct run of 100,000 nodes: one row each in order, folds and unfolds, arriving at once or 300 a frame', () => {
    const all = Array.from({ length: N }, (_, i) => reactNode(i));
    const once = setup();
    once.push(all);
    const s = once.frame();
    expect(s.size).toBe(N);
    expect(s.children('run').length).toBe(Math.ceil((N - 1) / 3));
    expect(once.rows.length).toBe(N);
    expect(once.rows.id(N - 1)).toBe(reactNode(N - 1).id);
    expect(once.rows.levelAt(N - 1)).toBe(3);
    once.rows.collapse('run');
    expect(once.rows.snapshot()).toEqual(['run']);
    once.rows.expand('run');
    expect(once.rows.length).toBe(N);
    expect(treeKeyAction('End', 'run', once.rows, s)).toEqual({ focus: N - 1 });

    const live = setup();
    for (let i = 0; i < N; i += 300) {
      live.push(all.slice(i, i + 300));
      live.frame();
    }
    // Compared as one string: a deep equality of two 100,000-element arrays is slow to report.
    expect(live.rows.snapshot().join('\n')).toBe(once.rows.snapshot().join('\n'));
  });

  it('a chain nested 100,000 levels, in order: one row per level, levels 1 to 100,000', () => {
    const t = setup();
    t.push(Array.from({ length: N }, (_, i) => chainNode(i)));
    const s = t.frame();
    expect(s.depth(`n${N - 1}`)).toBe(N - 1);
    expectChainRows(t.rows, N);
    expect(t.rows.collapse(`n${N >> 1}`)).toBe(true);
    expect(t.rows.length).toBe((N >> 1) + 1);
    t.rows.expand(`n${N >> 1}`);
    expectChainRows(t.rows, N);
    expect(treeKeyAction('ArrowLeft', `n${N - 1}`, t.rows, s)).toEqual({ focus: N - 2 });
  });

  it('a chain nested 100,000 levels whose children arrive before their parents, in one update', () => {
    const t = setup();
    t.push(Array.from({ length: N }, (_, i) => chainNode(N - 1 - i)));
    const s = t.frame();
    expect(s.roots).toEqual(['n0']);
    expect(s.depth(`n${N - 1}`)).toBe(N - 1);
    expectChainRows(t.rows, N);
  });

  it('a chain growing one level a frame to 100,000, as a live run streams it', () => {
    const t = setup();
    for (let i = 0; i < N; i++) {
      t.push([chainNode(i)]);
      t.frame();
    }
    expectChainRows(t.rows, N);
  });
});
