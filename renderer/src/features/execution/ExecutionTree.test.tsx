// @vitest-environment jsdom
/**
 * The execution tree component (renderer/src/features/execution/ExecutionTree.tsx) over the
 * real StreamStore with a manual frame clock: a WAI-ARIA tree with one tab stop, virtualised,
 * folded by chevron and keyboard, and re-rendering only the rows whose props or node changed.
 * jsdom has no layout, so the scroll viewport reports 300 px and every row 30 px.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Provider as JotaiProvider } from 'jotai';
import { AppState } from '../../state/app';
import { AppStateProvider } from '../../state/context';
import { StreamStore } from '../../state/stream-store';
import { ExecutionTree } from './ExecutionTree';
import { createViewerHost } from '../../host/viewer';
import { exampleThread } from '../../sample-thread';
import type { ExecNode } from '../../../../shared/protocol/nodes';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const sizes = { clientHeight: 300, offsetHeight: 30 };
const saved: [string, PropertyDescriptor | undefined][] = [];
beforeAll(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
  for (const [k, v] of Object.entries(sizes)) {
    saved.push([k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)]);
    Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
  }
});
afterAll(() => {
  for (const [k, d] of saved) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
});

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

const node = (id: string, parentId: string | undefined, kind: ExecNode['kind'] = 'llm', name = 'scripted'): ExecNode => ({ id, runId: 'r1', parentId, kind, name, status: 'running', startedAt: 1 });

/** Mounts the tree of run r1; frames run only when the test says so. Counts renders of each row. */
function mount(nodes: ExecNode[]) {
  const app = new AppState(createViewerHost(exampleThread(), []));
  let queue: (() => void)[] = [];
  const stream = new StreamStore(app.store, { requestSnapshot: () => {}, schedule: (cb) => void queue.push(cb) });
  (app as { stream: StreamStore }).stream = stream;
  // Every row render reads its node atom exactly once: count those reads per node (outside
  // the store's own frame flush, which sets the atoms).
  const renders: Record<string, number> = {};
  const family = stream.nodeAtom;
  let flushing = false;
  const counted = Object.assign((id: string) => {
    if (!flushing) renders[id] = (renders[id] ?? 0) + 1;
    return family(id);
  }, family);
  (stream as { nodeAtom: typeof family }).nodeAtom = counted;
  const flush = stream.flush.bind(stream);
  stream.flush = () => {
    flushing = true;
    try {
      flush();
    } finally {
      flushing = false;
    }
  };
  const frame = () =>
    act(() => {
      const q = queue;
      queue = [];
      q.forEach((cb) => cb());
    });
  stream.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes });
  frame();
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() =>
    root!.render(
      <MantineProvider>
        <AppStateProvider app={app}>
          <JotaiProvider store={app.store}>
            <ExecutionTree runId="r1" />
          </JotaiProvider>
        </AppStateProvider>
      </MantineProvider>,
    ),
  );
  const items = () => [...host.querySelectorAll<HTMLElement>('[role="treeitem"]')];
  const item = (id: string) => host.querySelector<HTMLElement>(`[data-node-id="${id}"]`);
  return { app, stream, frame, renders, host, items, item };
}

/** run → l1 → (a1, b1), run → l2 → (a2, b2), …; `finished` completes the run node (a stored run: the view does not follow). */
function react(turns: number, finished = false): ExecNode[] {
  const out = [{ ...node('run', undefined, 'run', 'react'), ...(finished && { status: 'completed' as const, endedAt: 2 }) }];
  for (let k = 1; k <= turns; k++) out.push(node(`l${k}`, 'run'), node(`a${k}`, `l${k}`, 'tool', 'get-sum'), node(`b${k}`, `l${k}`, 'tool', 'echo'));
  return out;
}

const key = (el: HTMLElement, k: string) => act(() => void el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })));

describe('execution tree', () => {
  it('is a tree of treeitems with level, position and expanded state, and mounts only the rows in view of 10,000', () => {
    const t = mount(react(3333, true));
    expect(t.host.querySelector('[role="tree"]')?.getAttribute('aria-label')).toBe('Execution tree');
    const rows = t.items();
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    const [run, l1, a1] = rows;
    expect(run.getAttribute('aria-label')).toBe('run react, completed');
    expect([run.getAttribute('aria-level'), run.getAttribute('aria-expanded'), run.getAttribute('aria-setsize')]).toEqual(['1', 'true', '1']);
    expect([l1.getAttribute('aria-level'), l1.getAttribute('aria-posinset'), l1.getAttribute('aria-setsize')]).toEqual(['2', '1', '3333']);
    expect([a1.getAttribute('aria-label'), a1.getAttribute('aria-level'), a1.hasAttribute('aria-expanded')]).toEqual(['tool get-sum, running', '3', false]);

    // The chevron folds the run node: one row left; again, and the 9,999 rows are back.
    act(() => t.item('run')!.querySelector<HTMLElement>('[data-toggle]')!.click());
    expect(t.items().map((r) => r.dataset.nodeId)).toEqual(['run']);
    expect(t.item('run')!.getAttribute('aria-expanded')).toBe('false');
    act(() => t.item('run')!.querySelector<HTMLElement>('[data-toggle]')!.click());
    expect(t.items().length).toBe(rows.length);
    expect(t.item('run')!.getAttribute('aria-expanded')).toBe('true');
  });

  it('has one tab stop, moves with the arrow keys after the tree view pattern, and selection follows focus', () => {
    const t = mount(react(3));
    // With nothing selected the first row is the tab stop.
    expect(t.items().filter((r) => r.tabIndex === 0).map((r) => r.dataset.nodeId)).toEqual(['run']);
    key(t.item('run')!, 'ArrowDown');
    expect(t.app.store.get(t.app.selectedAtom)).toEqual({ runId: 'r1', nodeId: 'l1' });
    expect(document.activeElement).toBe(t.item('l1'));
    expect(t.items().filter((r) => r.tabIndex === 0).map((r) => r.dataset.nodeId)).toEqual(['l1']);
    key(t.item('l1')!, 'ArrowRight'); // open: to the first child
    expect(document.activeElement).toBe(t.item('a1'));
    key(t.item('a1')!, 'ArrowLeft'); // a leaf: to its parent
    expect(document.activeElement).toBe(t.item('l1'));
    key(t.item('l1')!, 'ArrowLeft'); // open: close it
    expect(t.item('l1')!.getAttribute('aria-expanded')).toBe('false');
    expect(t.item('a1')).toBeNull();
    key(t.item('l1')!, 'ArrowDown'); // the next visible row skips the hidden children
    expect(document.activeElement).toBe(t.item('l2'));
    key(t.item('l2')!, 'ArrowUp');
    key(t.item('l1')!, 'ArrowRight'); // closed: open it
    expect(t.item('a1')).not.toBeNull();
    key(t.item('l1')!, 'End');
    expect(document.activeElement).toBe(t.item('b3'));
    key(t.item('b3')!, 'Home');
    expect(document.activeElement).toBe(t.item('run'));
  });

  it('re-renders only rows whose props or node changed when a node arrives or streams', () => {
    const t = mount(react(2));
    const before = { ...t.renders };
    // A third turn arrives: the previous turn's row gets a new setsize, the new row mounts;
    // the run row and the tool rows of earlier turns do not render again.
    t.stream.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('l3', 'run')] });
    t.frame();
    expect(t.item('l3')).not.toBeNull();
    expect(t.item('l2')!.getAttribute('aria-setsize')).toBe('3');
    for (const id of ['run', 'a1', 'b1', 'a2', 'b2']) expect(t.renders[id], id).toBe(before[id]);
    // A delta re-renders its row only, once per frame.
    const mid = { ...t.renders };
    for (let i = 1; i <= 20; i++) t.stream.apply({ v: 1, type: 'llm_delta', runId: 'r1', nodeId: 'l3', channel: 'text', index: 0, delta: 'x', seq: i });
    t.frame();
    expect(t.item('l3')!.textContent).toContain('x'.repeat(20));
    for (const id of Object.keys(mid)) expect(t.renders[id], id).toBe(id === 'l3' ? mid[id] + 1 : mid[id]);
  });

  it('shows provider-run tool activity on a model row and the summed usage and cost on the run row', () => {
    const usage = { inputTokens: 400, outputTokens: 30, cacheReadTokens: 50, costUsd: 0.0123 };
    const t = mount([
      { ...node('run', undefined, 'run', 'react'), status: 'completed', endedAt: 2, usage },
      {
        ...node('l1', 'run'),
        status: 'completed',
        endedAt: 2,
        usage,
        output: { text: 'Sunny.', stopReason: 'stop', serverTools: [{ type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'paris' } }, { type: 'web_search_tool_result', tool_use_id: 's1', content: [{ type: 'web_search_result', url: 'u' }] }] },
      },
    ]);
    const row = t.item('l1')!.textContent!;
    expect(row).toContain('⚙ web_search {"query":"paris"}');
    expect(row).toContain('⚙ web_search_tool_result → 1 item');
    expect(t.item('run')!.textContent).toContain('400→30 $0.0123');
  });

  it('follows a live run to its newest node in the next animation frame, never inside a commit', () => {
    // Setting scrollTop lays the page out at once: written in a commit, every commit of a live
    // run laid out the whole window. Record where the writes happen.
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const writes: number[] = [];
    const saved = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
    Object.defineProperty(HTMLElement.prototype, 'scrollTop', { configurable: true, get: () => 0, set: (v: number) => void writes.push(v) });
    const animate = () => act(() => frames.splice(0).forEach((cb) => cb(0)));
    try {
      const t = mount(react(50));
      expect(writes).toEqual([]);
      animate();
      expect(writes).toHaveLength(1);
      expect(writes[0]).toBeGreaterThan(1000); // the end of 151 rows of 30 px in a 300 px view
      t.stream.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('l51', 'run'), node('a51', 'l51', 'tool', 'get-sum')] });
      t.frame();
      expect(writes).toHaveLength(1);
      animate();
      expect(writes).toHaveLength(2);
      expect(writes[1]).toBeGreaterThan(writes[0]);
    } finally {
      delete (HTMLElement.prototype as { scrollTop?: number }).scrollTop;
      if (saved) Object.defineProperty(Element.prototype, 'scrollTop', saved);
      vi.unstubAllGlobals();
    }
  });
});
