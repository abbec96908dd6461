/**
 * The execution tree of one run as the runner builds it (docs/architecture.md#the-execution-tree).
 * It numbers the nodes (`<runId>.<n>`), keeps each node's latest metadata, status and output,
 * and posts every open and close as a `tree_update` with the whole node, and every change in
 * between as a `node_update` with only what changed, through the emitter; a terminal node is
 * never changed again. It keeps no streamed text: deltas go straight from the LLM
 * node's sink to the emitter, and whoever closes a node passes its output, partial or whole
 * (an LLM node's is what its provider accumulated, `llm-node.ts`); closing a node without an
 * output leaves the one it had.
 */
import type { ExecNode, NodeKind, NodeStatus, NodeError, NodeLog, Usage, Timing } from '../../shared/protocol/nodes';
import type { NodeChange } from '../../shared/protocol/envelopes';
import { isTerminal, type LiveStatus } from '../../shared/protocol/status';
import { applyNodeChange } from '../../shared/stream/node-change';
import type { RunEmitter } from '../emit/emitter';

export interface OpenNodeOptions {
  kind: NodeKind;
  name: string;
  parentId?: string;
  status?: NodeStatus;
  input?: unknown;
  model?: string;
  toolCallId?: string;
  attrs?: Record<string, unknown>;
}

export interface CloseNodeOptions {
  status: NodeStatus;
  output?: unknown;
  error?: NodeError;
  usage?: Usage;
  timing?: Timing;
  attrs?: Record<string, unknown>;
}

export class RunTree {
  private counter = 0;
  readonly nodes = new Map<string, ExecNode>();

  constructor(
    readonly runId: string,
    readonly emitter: RunEmitter,
  ) {}

  /** Opens a node and posts it; returns its id. */
  open(o: OpenNodeOptions): string {
    const id = `${this.runId}.${++this.counter}`;
    const node: ExecNode = {
      id,
      runId: this.runId,
      kind: o.kind,
      name: o.name,
      status: o.status ?? 'running',
      startedAt: Date.now(),
    };
    if (o.parentId) node.parentId = o.parentId;
    if (o.input !== undefined) node.input = o.input;
    if (o.model) node.model = o.model;
    if (o.toolCallId) node.toolCallId = o.toolCallId;
    if (o.attrs) node.attrs = o.attrs;
    this.nodes.set(id, node);
    this.emitter.tree([node]);
    return id;
  }

  get(id: string): ExecNode | undefined {
    return this.nodes.get(id);
  }

  /**
   * Changes a live node (a live status, input, output, attrs merged key by key) and posts only
   * that change. A terminal node is never changed; a terminal status closes the node.
   */
  update(id: string, change: Omit<NodeChange, 'nodeId' | 'status'> & { status?: NodeStatus }): void {
    const node = this.nodes.get(id);
    if (!node || isTerminal(node.status)) return;
    const { status, ...rest } = change;
    if (status !== undefined && isTerminal(status)) {
      this.close(id, { status, output: rest.output, attrs: rest.attrs });
      return;
    }
    const live: Omit<NodeChange, 'nodeId'> = status === undefined ? rest : { ...rest, status: status as LiveStatus };
    this.nodes.set(id, applyNodeChange(node, live));
    this.emitter.update(id, live);
  }

  /** Appends one log line to a live node's `attrs.logs` (the last MAX_NODE_LOGS kept); posts only the line. */
  log(id: string, line: NodeLog): void {
    this.update(id, { logs: [line] });
  }

  /** Closes a node with its final state. Idempotent: a terminal node stays as it is. */
  close(id: string, o: CloseNodeOptions): void {
    const node = this.nodes.get(id);
    if (!node || isTerminal(node.status)) return;
    node.status = o.status;
    node.endedAt = Date.now();
    if (o.output !== undefined) node.output = o.output;
    if (o.error) node.error = o.error;
    if (o.usage) node.usage = o.usage;
    if (o.timing) node.timing = o.timing;
    if (o.attrs) node.attrs = { ...node.attrs, ...o.attrs };
    this.emitter.tree([node]);
  }

  /** Nodes that are neither terminal nor waiting for the user. */
  openNodes(): ExecNode[] {
    return [...this.nodes.values()].filter((n) => !isTerminal(n.status) && n.status !== 'awaiting_input');
  }
}
