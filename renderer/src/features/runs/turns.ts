/**
 * Runs grouped into turns (docs/architecture.md#turns): a model run, the tool runs that executed
 * its calls and the model runs that answered their results, as Run history lists them and Compare
 * compares them — one turn, its tools shown as run, not as three runs of which the first still
 * waits for its tools and the last made "0 tool calls".
 */
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { ExecNode } from '../../../../shared/protocol/nodes';
import type { RunRef } from '../../../../shared/thread/schema';

/** A turn's records as one ({@link mergeTurn}): `turnRuns`, the modes of the runs merged, oldest first. */
export type TurnRecord = RunRecord & { turnRuns?: RunRecord['mode'][] };

/** One turn: its first run and the runs that continued it, oldest first. */
export interface Turn {
  first: RunRef;
  /** The later runs of the turn, oldest first (empty for a run that is a turn on its own). */
  rest: RunRef[];
}

/**
 * `refs` (newest first, as Run history lists them) grouped into turns, newest turn first. A run
 * naming a turn whose first run is not listed (deleted) is a turn of its own.
 */
export function groupTurns(refs: readonly RunRef[]): Turn[] {
  const ids = new Set(refs.map((r) => r.id));
  const turns = new Map<string, Turn>();
  const order: string[] = [];
  for (const r of [...refs].reverse()) {
    const key = r.turn && ids.has(r.turn) ? r.turn : r.id;
    const t = turns.get(key);
    if (t && key !== r.id) t.rest.push(r);
    else {
      turns.set(key, { first: r, rest: [] });
      order.push(key);
    }
  }
  return order.reverse().map((k) => turns.get(k)!);
}

/** The runs of a turn, oldest first. */
export function turnRuns(t: Turn): RunRef[] {
  return [t.first, ...t.rest];
}

/** The turn's status: its newest run's. */
export function turnStatus(t: Turn): RunRef['status'] {
  return (t.rest[t.rest.length - 1] ?? t.first).status;
}

/** The sum of the turn's runs' durations, ms (the time between them, a person reading, is not counted); undefined while one runs. */
export function turnDurationMs(t: Turn, duration: (r: RunRef) => number | undefined): number | undefined {
  let sum = 0;
  for (const r of turnRuns(t)) {
    const d = duration(r);
    if (d === undefined) return undefined;
    sum += d;
  }
  return sum;
}

/**
 * The records of one turn (oldest first) as one record: the later runs' nodes under the first
 * run's root, a tool node the first run left awaiting input replaced (in its place) by the node
 * of the run that executed that call, the root's duration the sum of the runs' own. The first
 * run's id and start; the newest run's status and end.
 */
export function mergeTurn(records: readonly RunRecord[]): TurnRecord {
  const [head, ...later] = records;
  if (!head || later.length === 0) return head;
  const root = head.nodes.find((n) => n.kind === 'run' && !n.parentId);
  const rootOf = (rec: RunRecord) => rec.nodes.find((n) => n.kind === 'run' && !n.parentId);
  const nodes: ExecNode[] = head.nodes.filter((n) => n !== root);
  // Where a call waited: its tool node's parent and position, by tool call id.
  const waiting = new Map<string, ExecNode>();
  const index = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (n.kind === 'tool' && n.toolCallId && n.status === 'awaiting_input') {
      waiting.set(n.toolCallId, n);
      index.set(n.toolCallId, i);
    }
  });
  let durationMs = root?.durationMs ?? (root?.endedAt !== undefined ? root.endedAt - root.startedAt : 0);
  for (const rec of later) {
    const own = rootOf(rec);
    durationMs += own?.durationMs ?? (own?.endedAt !== undefined ? own.endedAt - own.startedAt : 0);
    for (const n of rec.nodes) {
      if (n === own) continue;
      const parentId = n.parentId === own?.id ? root?.id : n.parentId;
      const before = n.kind === 'tool' && n.toolCallId ? waiting.get(n.toolCallId) : undefined;
      if (before) {
        // In the waiting call's place: under the model call that made it, in its order.
        nodes[index.get(n.toolCallId!)!] = { ...n, parentId: before.parentId, startedAt: before.startedAt };
        waiting.delete(n.toolCallId!);
      } else nodes.push({ ...n, parentId });
    }
  }
  const last = later[later.length - 1];
  const merged: TurnRecord = {
    ...head,
    turnRuns: records.map((r) => r.mode),
    status: last.status,
    nodes: root ? [{ ...root, status: last.status, endedAt: rootOf(last)?.endedAt ?? last.endedAt, durationMs }, ...nodes] : nodes,
    records: records.flatMap((r) => r.records),
    messages: records.flatMap((r) => r.messages ?? []),
  };
  if (last.endedAt !== undefined) merged.endedAt = last.endedAt;
  else delete merged.endedAt;
  return merged;
}
