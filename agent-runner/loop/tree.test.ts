/**
 * A node's duration is measured once, when the tree closes it, on the monotonic clock
 * (`performance.now()`), not from wall-clock times that can jump (docs/architecture.md#the-execution-tree).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunTree } from './tree';
import type { RunEmitter } from '../emit/emitter';
import type { ExecNode } from '../../shared/protocol/nodes';
import { nodeDurationMs } from '../../shared/protocol/duration';

afterEach(() => vi.restoreAllMocks());

function tree() {
  const sent: ExecNode[] = [];
  const emitter = { tree: (nodes: ExecNode[]) => sent.push(...nodes.map((n) => ({ ...n }))), update: () => {} } as unknown as RunEmitter;
  return { t: new RunTree('r1', emitter), sent };
}

describe('RunTree durations', () => {
  it('stores the monotonic time between open and close, whatever the wall clock did', () => {
    let mono = 1000;
    let wall = Date.UTC(2026, 0, 1);
    vi.spyOn(performance, 'now').mockImplementation(() => mono);
    vi.spyOn(Date, 'now').mockImplementation(() => wall);
    const { t, sent } = tree();
    const run = t.open({ kind: 'run', name: 'step' });
    const llm = t.open({ kind: 'llm', name: 'model', parentId: run });
    mono += 437;
    wall += 835; // the system clock was adjusted meanwhile
    t.close(llm, { status: 'completed', timing: { firstTokenMs: 12 } });
    mono += 3;
    t.close(run, { status: 'completed' });
    const closedLlm = sent.filter((n) => n.id === llm).at(-1)!;
    const closedRun = sent.filter((n) => n.id === run).at(-1)!;
    expect(closedLlm.durationMs).toBe(437);
    expect(closedLlm.timing).toEqual({ firstTokenMs: 12, durationMs: 437 });
    expect(nodeDurationMs(closedLlm)).toBe(437);
    expect(closedRun.durationMs).toBe(440);
    // Closing again changes nothing.
    mono += 1000;
    t.close(run, { status: 'error' });
    expect(t.get(run)!.durationMs).toBe(440);
  });
});
