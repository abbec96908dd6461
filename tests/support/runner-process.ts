/**
 * One run in a real agent-runner process (the bundled runner, tests/support/runner-bundle.ts),
 * driven like the host drives it: `start`, then `input` / `cancel` frames; the nodes folded
 * from its `tree_update` / `node_update` envelopes, and its `run_result`.
 */
import { NodeSpawner } from '../../main/core/process/node-spawner';
import type { ChildExit, ChildFrame, ChildLink } from '../../main/core/process/types';
import type { RunSpec } from '../../shared/protocol/runner';
import type { ExecNode } from '../../shared/protocol/nodes';
import type { ToolOutputPatch } from '../../shared/protocol/envelopes';
import type { Message } from '../../shared/thread/messages';
import { bundledRunner } from './runner-bundle';
import { waitFor } from './host-harness';

/** A started run: its nodes as they stand, and ways to answer or cancel it. */
export interface RunnerRun {
  link: ChildLink;
  nodes: Map<string, ExecNode>;
  result(): { status: string; messages: Message[]; toolOutputs: ToolOutputPatch[] } | undefined;
  exit(): ChildExit | undefined;
  input(nodeId: string, value: unknown): void;
  cancel(): void;
  /** Resolves when the runner process has exited. */
  exited(): Promise<ChildExit>;
}

/** Starts `spec` in a new runner process; kill it with `link.kill` when the test is done. */
export function startRunnerRun(spec: RunSpec): RunnerRun {
  const link = new NodeSpawner({ stdout: 'pipe' }).spawn(bundledRunner(), { name: 'runner-under-test' });
  const nodes = new Map<string, ExecNode>();
  let result: ReturnType<RunnerRun['result']>;
  let exit: ChildExit | undefined;
  link.onFrame((f: ChildFrame) => {
    if (f.ch !== 'run') return;
    const m = f.msg as { type: string; nodes?: ExecNode[]; nodeId?: string; status?: ExecNode['status']; attrs?: Record<string, unknown>; output?: unknown } & Record<string, unknown>;
    if (m.type === 'tree_update') for (const n of m.nodes!) nodes.set(n.id, n);
    if (m.type === 'node_update') {
      const n = nodes.get(m.nodeId!);
      if (n) nodes.set(n.id, { ...n, ...(m.status ? { status: m.status } : {}), ...(m.output !== undefined ? { output: m.output } : {}), attrs: { ...n.attrs, ...m.attrs } });
    }
    if (m.type === 'run_result') result = m as unknown as typeof result;
  });
  link.onExit((e) => (exit = e));
  link.send({ ch: 'run', msg: { type: 'start', spec } });
  return {
    link,
    nodes,
    result: () => result,
    exit: () => exit,
    input: (nodeId, value) => link.send({ ch: 'run', msg: { type: 'input', nodeId, value } }),
    cancel: () => link.send({ ch: 'run', msg: { type: 'cancel', reason: 'test' } }),
    exited: () => waitFor(() => exit, 60_000, 'runner exit'),
  };
}

/** The tool nodes of a run, in opening order. */
export function toolNodes(run: RunnerRun): ExecNode[] {
  return [...run.nodes.values()].filter((n) => n.kind === 'tool');
}
