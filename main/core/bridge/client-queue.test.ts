/** One client's queue (docs/architecture.md#backpressure): which held-back nodes get a snapshot when it drains. */
import { describe, expect, it } from 'vitest';
import { ClientQueue } from './client-queue';
import type { HostPush } from '../../../shared/protocol/host-api';

const delta = (runId: string, nodeId: string, seq: number): HostPush => ({ v: 1, type: 'llm_delta', runId, nodeId, channel: 'text', index: 0, delta: 'x', seq });

/** A queue over its bound (2 frames in flight) with deltas of `nodes` held back. */
function throttledWith(nodes: [string, string][]): { queue: ClientQueue; sent: HostPush[] } {
  const sent: HostPush[] = [];
  const queue = new ClientQueue((p) => sent.push(p), { maxFrames: 2, maxBytes: 1 << 20 });
  queue.push(delta('r0', 'r0.1', 1), 10);
  queue.push(delta('r0', 'r0.1', 2), 10);
  nodes.forEach(([runId, nodeId], i) => expect(queue.offerDelta(delta(runId, nodeId, i + 1), 10, runId, nodeId)).toBe(false));
  return { queue, sent };
}

describe('ClientQueue', () => {
  it('lists every held-back node once when it drains', () => {
    const { queue } = throttledWith([['r1', 'r1.1'], ['r1', 'r1.2'], ['r1', 'r1.1'], ['r2', 'r2.1']]);
    expect(queue.ack(2)).toBe(true);
    expect(queue.resume()).toEqual([
      { runId: 'r1', nodeId: 'r1.1' },
      { runId: 'r1', nodeId: 'r1.2' },
      { runId: 'r2', nodeId: 'r2.1' },
    ]);
  });

  it('a node marked clean (snapshot sent, or closed) needs no snapshot on resume', () => {
    const { queue } = throttledWith([['r1', 'r1.1'], ['r1', 'r1.2'], ['r2', 'r1.1']]);
    queue.markClean('r1', 'r1.1');
    queue.markClean('r9', 'r1.2'); // another run's node of the same id: r1's stays dirty
    expect(queue.ack(2)).toBe(true);
    expect(queue.resume()).toEqual([
      { runId: 'r1', nodeId: 'r1.2' },
      { runId: 'r2', nodeId: 'r1.1' },
    ]);
  });

  it('a clean node is forwarded again once the queue has room', () => {
    const { queue, sent } = throttledWith([['r1', 'r1.1']]);
    queue.ack(2);
    queue.resume();
    expect(queue.offerDelta(delta('r1', 'r1.1', 5), 10, 'r1', 'r1.1')).toBe(true);
    expect(sent.at(-1)).toEqual(delta('r1', 'r1.1', 5));
  });
});
