// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { Profiler, act } from 'react';
import { createRoot } from 'react-dom/client';
import { createStore, Provider, useAtomValue } from 'jotai';
import { StreamStore } from './stream-store';
import type { StreamEnvelope } from '../../../shared/protocol/envelopes';
import type { ExecNode } from '../../../shared/protocol/nodes';
import { checkVector, loadStreamVectors } from '../../../tests/support/stream-vectors';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A manual frame clock: frames run only when the test says so. */
function manualFrames() {
  let queue: (() => void)[] = [];
  return {
    schedule: (cb: () => void) => void queue.push(cb),
    run() {
      const q = queue;
      queue = [];
      q.forEach((cb) => cb());
    },
    get pending() {
      return queue.length;
    },
  };
}

const node = (id: string, over: Partial<ExecNode> = {}): ExecNode => ({
  id,
  runId: 'r1',
  kind: 'llm',
  name: 'model',
  status: 'running',
  startedAt: 1,
  ...over,
});
const delta = (nodeId: string, seq: number, text: string, channel: 'text' | 'thinking' | 'tool_args' = 'text'): StreamEnvelope => ({
  v: 1,
  type: 'llm_delta',
  runId: 'r1',
  nodeId,
  channel,
  index: 0,
  delta: text,
  seq,
});

function setup() {
  const store = createStore();
  const frames = manualFrames();
  const asked: string[] = [];
  const s = new StreamStore(store, { requestSnapshot: (_r, n) => void asked.push(n), schedule: frames.schedule });
  return { store, frames, asked, s };
}

describe('StreamStore', () => {
  it('passes the conformance vectors once flushed', () => {
    const vectors = loadStreamVectors();
    expect(vectors.length).toBeGreaterThan(5);
    for (const v of vectors) {
      const { store, frames, s } = setup();
      const apply = (env: StreamEnvelope) => {
        s.apply(env);
        frames.run();
      };
      const show = (nodeId: string) => {
        const view = store.get(s.nodeAtom(nodeId))!;
        return { text: view.text, thinking: view.thinking, toolArgs: { ...view.toolArgs }, status: view.status, syncing: view.syncing, attrs: view.node?.attrs };
      };
      checkVector(v, apply, show, ['text', 'thinking', 'toolArgs', 'status', 'syncing', 'attrs']);
    }
  });

  it('asks for one snapshot per gap and takes a snapshot at or above the applied seq', () => {
    const { store, frames, asked, s } = setup();
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('n1')] });
    s.apply(delta('n1', 1, 'He'));
    s.apply(delta('n1', 4, 'lost'));
    s.apply(delta('n1', 5, 'lost'));
    frames.run();
    expect(asked).toEqual(['n1']);
    expect(store.get(s.nodeAtom('n1'))).toMatchObject({ text: 'He', syncing: true });
    s.apply({ v: 1, type: 'node_snapshot', runId: 'r1', nodeId: 'n1', seq: 5, text: 'Hello wo', thinking: '', toolArgs: {}, status: 'running' });
    s.apply(delta('n1', 6, 'rld'));
    frames.run();
    expect(store.get(s.nodeAtom('n1'))).toMatchObject({ text: 'Hello world', syncing: false });
  });

  it('ends syncing when the snapshot request fails, and shows the closing output', async () => {
    const store = createStore();
    const frames = manualFrames();
    const s = new StreamStore(store, { requestSnapshot: () => Promise.reject(new Error('gone')), schedule: frames.schedule });
    s.apply(delta('n1', 1, 'a'));
    s.apply(delta('n1', 3, 'c'));
    await new Promise((r) => setTimeout(r, 0));
    frames.run();
    expect(store.get(s.nodeAtom('n1'))!.syncing).toBe(false);
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('n1', { status: 'completed', output: { text: 'abc' } })] });
    s.apply(delta('n1', 4, 'late'));
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('n1', { status: 'running' })] });
    frames.run();
    expect(store.get(s.nodeAtom('n1'))).toMatchObject({ text: 'abc', status: 'completed' });
  });

  it('parses streamed tool arguments once per frame, not once per delta', () => {
    const { store, frames, s } = setup();
    const parts = ['{"a', '": 1', ', "b": [1', ', 2', ']}'];
    parts.forEach((p, i) => s.apply(delta('n1', i + 1, p, 'tool_args')));
    expect(frames.pending).toBe(1);
    frames.run();
    expect(store.get(s.nodeAtom('n1'))!.args[0]).toEqual({ a: 1, b: [1, 2] });
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('n1', { status: 'running' })] });
    frames.run();
    // Unchanged raw text keeps the parsed value (no reparse).
    expect(store.get(s.nodeAtom('n1'))!.args[0]).toEqual({ a: 1, b: [1, 2] });
  });

  it('keeps structure in per-run atoms and releases a run with atomFamily.remove', () => {
    const { store, frames, s } = setup();
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('run', { kind: 'run', name: 'run' }), node('l1', { parentId: 'run' }), node('t1', { kind: 'tool', name: 'get-sum', parentId: 'l1' })] });
    frames.run();
    const tree = store.get(s.runTreeAtom('r1'))!;
    expect(tree.structure.roots).toEqual(['run']);
    expect(tree.structure.children('run')).toEqual(['l1']);
    expect(tree.structure.children('l1')).toEqual(['t1']);
    // A status-only update does not touch the tree atom.
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('l1', { parentId: 'run', status: 'completed', output: { text: '' } })] });
    frames.run();
    expect(store.get(s.runTreeAtom('r1'))).toBe(tree);
    expect([...s.nodeAtom.getParams()].sort()).toEqual(['l1', 'run', 't1']);
    s.releaseRun('r1');
    expect([...s.nodeAtom.getParams()]).toEqual([]);
    expect([...s.runTreeAtom.getParams()]).toEqual([]);
    expect(s.live('l1')).toBeUndefined();
  });

  it('grows the tree atom in place: new nodes are appended, a node that arrives before its parent moves under it', () => {
    const { store, frames, s } = setup();
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('run', { kind: 'run', name: 'run' }), node('l1', { parentId: 'run' })] });
    frames.run();
    const first = store.get(s.runTreeAtom('r1'))!;
    // Ids a plain object would take for its prototype's keys are ordinary nodes: a node whose
    // parent "constructor" has not arrived yet is a root, not lost.
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('t1', { kind: 'tool', parentId: 'constructor' }), node('__proto__', { parentId: 'l1' })] });
    frames.run();
    const second = store.get(s.runTreeAtom('r1'))!;
    expect(second).not.toBe(first);
    expect(second.version).toBeGreaterThan(first.version);
    expect(second.structure).toBe(first.structure);
    expect(second.structure.roots).toEqual(['run', 't1']);
    expect(second.structure.children('l1')).toEqual(['__proto__']);
    expect(second.structure.order).toEqual(['run', 'l1', 't1', '__proto__']);
    expect(second.structure.rebuilds).toBe(0);
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('constructor', { parentId: 'l1' })] });
    frames.run();
    const third = store.get(s.runTreeAtom('r1'))!.structure;
    expect(third.roots).toEqual(['run']);
    expect(third.children('l1')).toEqual(['__proto__', 'constructor']);
    expect(third.children('constructor')).toEqual(['t1']);
    expect(third.rebuilds).toBe(1);
  });

  it('re-renders only the row whose node changed, once per frame however many deltas arrived', () => {
    const { store, frames, s } = setup();
    s.apply({ v: 1, type: 'tree_update', runId: 'r1', nodes: [node('a'), node('b')] });
    frames.run();
    const renders: Record<string, number> = { a: 0, b: 0 };
    function Row({ id }: { id: string }) {
      const v = useAtomValue(s.nodeAtom(id));
      return <div data-id={id}>{v?.text}</div>;
    }
    const host = document.createElement('div');
    const root = createRoot(host);
    act(() =>
      root.render(
        <Provider store={store}>
          {['a', 'b'].map((id) => (
            <Profiler key={id} id={id} onRender={(pid) => void renders[pid]++}>
              <Row id={id} />
            </Profiler>
          ))}
        </Provider>,
      ),
    );
    renders.a = renders.b = 0;
    act(() => {
      for (let i = 1; i <= 200; i++) s.apply(delta('a', i, 'x'));
    });
    expect(renders).toEqual({ a: 0, b: 0 }); // nothing until the frame
    act(() => frames.run());
    expect(renders).toEqual({ a: 1, b: 0 });
    expect(host.querySelector('[data-id=a]')!.textContent).toBe('x'.repeat(200));
    act(() => root.unmount());
  });
});
