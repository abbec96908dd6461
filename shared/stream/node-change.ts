/**
 * How a `node_update` changes a node (docs/architecture.md#envelopes), in one place for everyone
 * who holds nodes: the runner's tree, every stream consumer (renderer, CLI, the bridge replica)
 * and the run journal's replay. Pure functions; the node passed in is never changed.
 */
import type { ExecNode, NodeLog } from '../protocol/nodes';
import { isTerminal } from '../protocol/status';
import type { NodeChange } from '../protocol/envelopes';

/** How many log lines a node keeps in `attrs.logs` (the latest ones). */
export const MAX_NODE_LOGS = 500;

/** `prev` (a node's `attrs.logs`, whatever it holds) with `lines` appended; the last MAX_NODE_LOGS kept. */
export function appendLogs(prev: unknown, lines: readonly NodeLog[]): NodeLog[] {
  const all = (Array.isArray(prev) ? (prev as NodeLog[]) : []).concat(lines);
  return all.length > MAX_NODE_LOGS ? all.slice(all.length - MAX_NODE_LOGS) : all;
}

/**
 * The node after `change`: status (a terminal one is ignored: nodes close by `tree_update`),
 * input and output replaced when given, `attrs` merged key by key, then `logs` appended to
 * `attrs.logs`.
 */
export function applyNodeChange(node: ExecNode, change: Omit<NodeChange, 'nodeId'>): ExecNode {
  const next: ExecNode = { ...node };
  if (change.status !== undefined && !isTerminal(change.status)) next.status = change.status;
  if (change.input !== undefined) next.input = change.input;
  if (change.output !== undefined) next.output = change.output;
  if (change.attrs || change.logs?.length) {
    const attrs: Record<string, unknown> = { ...node.attrs, ...change.attrs };
    if (change.logs?.length) attrs.logs = appendLogs(attrs.logs, change.logs);
    next.attrs = attrs;
  }
  return next;
}

/**
 * One change with the effect of `a` then `b` on any node (the emitter sends a node's pending
 * changes as one): later fields win, attrs merge, logs add up unless `b` sets `attrs.logs`.
 */
export function mergeChanges<C extends Omit<NodeChange, 'nodeId'>>(a: C, b: C): C {
  const out: C = { ...a, ...b };
  if (a.attrs || b.attrs) out.attrs = { ...a.attrs, ...b.attrs };
  const bSetsLogs = b.attrs !== undefined && Object.prototype.hasOwnProperty.call(b.attrs, 'logs');
  const logs = bSetsLogs ? b.logs : a.logs && b.logs ? appendLogs(a.logs, b.logs) : (b.logs ?? a.logs);
  if (logs?.length) out.logs = logs;
  else delete out.logs;
  return out;
}
