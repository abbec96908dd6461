/**
 * Durations of nodes and runs, measured once (docs/architecture.md#the-execution-tree): the
 * runner measures each node from its opening to its closing on a monotonic clock
 * (`performance.now()`) and stores the result on the node (`durationMs`); a run lasts as long as
 * its root `run` node, and its run ref carries that number. A node the host closed for the runner
 * (a crash, a cancel, a repair after a host crash) gets its `durationMs` once, from its start to
 * its closing. Everything that shows a duration (the execution tree, Detail, run history,
 * Compare, the CLI) reads it through these functions, so one run shows one number everywhere.
 * Records written before `durationMs` existed fall back to `endedAt - startedAt`.
 */
import type { ExecNode } from './nodes';

/** The stored duration of a node, in ms; undefined while it runs. */
export function nodeDurationMs(n: Pick<ExecNode, 'startedAt' | 'endedAt' | 'durationMs' | 'timing'>): number | undefined {
  if (n.durationMs !== undefined) return n.durationMs;
  if (n.endedAt !== undefined) return Math.max(0, n.endedAt - n.startedAt);
  return undefined;
}

/** The duration of a run from its run ref (`durationMs`, else its start and end), in ms; undefined while it runs. */
export function runRefDurationMs(ref: { startedAt: number; endedAt?: number; durationMs?: number }): number | undefined {
  if (ref.durationMs !== undefined) return ref.durationMs;
  return ref.endedAt !== undefined ? Math.max(0, ref.endedAt - ref.startedAt) : undefined;
}

/** The duration of a run from its nodes: its root `run` node's; else the record's start and end. */
export function runDurationMs(run: { startedAt: number; endedAt?: number; nodes: readonly Pick<ExecNode, 'kind' | 'parentId' | 'startedAt' | 'endedAt' | 'durationMs' | 'timing'>[] }): number | undefined {
  const root = run.nodes.find((n) => n.kind === 'run' && !n.parentId);
  return root ? nodeDurationMs(root) : runRefDurationMs(run);
}

/** A duration as every view prints it: `437 ms` under a second, else `1.67 s`; `—` when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
