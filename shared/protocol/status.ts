/**
 * Node statuses as plain values, without the schema library, so hot and start-up paths (the
 * runner process, the stream consumer) can use them cheaply. The schema is in nodes.ts.
 */
export type NodeStatus = 'pending' | 'running' | 'awaiting_input' | 'completed' | 'error' | 'cancelled' | 'interrupted';

export const TERMINAL_STATUSES: ReadonlySet<NodeStatus> = new Set<NodeStatus>(['completed', 'error', 'cancelled', 'interrupted']);

/** True for completed, error, cancelled and interrupted. `awaiting_input` is not terminal. */
export const isTerminal = (s: NodeStatus): boolean => TERMINAL_STATUSES.has(s);

/** A status a node has while it is open; a `node_update` carries only these. */
export type LiveStatus = 'pending' | 'running' | 'awaiting_input';
