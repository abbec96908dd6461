/**
 * The project's stream conformance vectors, `tests/fixtures/conformance/stream-vectors.json`
 * (format and rules: docs/architecture.md#conformance-vectors), for the test of every consumer
 * of envelopes: the shared consumer, the renderer store and the bridge replica.
 */
import { expect } from 'vitest';
import vectorsFile from '../fixtures/conformance/stream-vectors.json';
import type { StreamEnvelope } from '../../shared/protocol/envelopes';
import type { NodeStatus } from '../../shared/protocol/nodes';

/** What a consumer must show for one node after a step. */
export interface ShownNode {
  text: string;
  thinking: string;
  /** Raw argument text per tool-call index (keys are the indexes as strings). */
  toolArgs: Record<string, string>;
  status: NodeStatus;
  /** A snapshot request is in flight. */
  syncing: boolean;
  /** Snapshot requests sent for the node so far. */
  snapshotRequests: number;
  /** The node's attributes (`attrs` of its metadata); compared only where a step names them. */
  attrs?: Record<string, unknown>;
}

/** One vector: envelopes fed in order, each with the state expected after it, by node id. */
export interface StreamVector {
  name: string;
  about?: string;
  steps: { in: StreamEnvelope; expect: Record<string, ShownNode> }[];
}

/** Repository path of the vectors file. */
export const STREAM_VECTORS_FILE = 'tests/fixtures/conformance/stream-vectors.json';

/**
 * The vectors, imported as JSON (no Node API: the renderer store's test, beside its source,
 * is type-checked as browser code); throws naming the file when it is not `{ vectors: [...] }`.
 */
export function loadStreamVectors(): StreamVector[] {
  const data = structuredClone(vectorsFile as unknown) as { vectors?: unknown };
  if (!Array.isArray(data.vectors)) throw new Error(`${STREAM_VECTORS_FILE}: expected an object with a "vectors" array`);
  return data.vectors as StreamVector[];
}

/** What a consumer shows of one node, in the vectors' terms; fields it does not keep are left out. */
export type Shown = Partial<ShownNode>;

/**
 * Feeds a vector's envelopes to a consumer through `apply` and checks, after each step, what
 * `show(nodeId)` returns for every node the step expects. Only `fields` are compared: a
 * consumer that keeps no request count (the renderer store) or never syncs (the bridge
 * replica) names the fields it keeps; `attrs` only in the steps that name it.
 */
export function checkVector(
  v: StreamVector,
  apply: (env: StreamEnvelope) => void,
  show: (nodeId: string) => Shown,
  fields: readonly (keyof ShownNode)[] = ['text', 'thinking', 'toolArgs', 'status', 'syncing', 'snapshotRequests', 'attrs'],
): void {
  v.steps.forEach((step, i) => {
    apply(step.in);
    for (const [nodeId, want] of Object.entries(step.expect)) {
      const named = fields.filter((f) => f !== 'attrs' || want.attrs !== undefined);
      const pick = (n: Shown) => Object.fromEntries(named.map((f) => [f, n[f]]));
      expect(pick(show(nodeId)), `${v.name}, step ${i}, node ${nodeId}`).toEqual(pick(want));
    }
  });
}
