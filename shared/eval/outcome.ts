/**
 * What an assertion reads of a case's run (the "outcome"), derived from its run record's
 * execution tree: the final assistant text, every tool call the model made (with whether and
 * how it ran), the number of model calls, token totals, cost when the providers' usage gave
 * one, and the latency on the run's own clock. Browser-safe.
 */
import type { ExecNode, NodeStatus } from '../protocol/nodes';

/** One tool call the model asked for during the run. */
export interface OutcomeToolCall {
  name: string;
  arguments: unknown;
  /** The tool node's status when it ran (absent: it never ran, e.g. a step that stopped at it). */
  status?: NodeStatus;
}

/** A case run's facts, as assertions and the results grid read them. */
export interface CaseOutcome {
  status: NodeStatus;
  /** The run's error, when it ended `error`. */
  error?: string;
  /** The last model call's text (empty when it only called tools). */
  finalText: string;
  toolCalls: OutcomeToolCall[];
  /** Model calls made by the run itself (not MCP sampling calls). */
  turns: number;
  inputTokens: number;
  outputTokens: number;
  /** USD, summed from the model nodes that report `attrs.costUsd`; absent when none did. */
  costUsd?: number;
  /** Milliseconds from the run's start to its end, on the run's own clock (its root node). */
  latencyMs?: number;
}

/** The outcome of one run, from its nodes (a run record's `nodes`). */
export function outcomeOf(nodes: readonly ExecNode[]): CaseOutcome {
  const root = nodes.find((n) => n.kind === 'run');
  const llm = nodes.filter((n) => n.kind === 'llm' && (!root || n.parentId === root.id)).sort((a, b) => a.startedAt - b.startedAt);
  const toolNodes = new Map<string, ExecNode>();
  for (const n of nodes) if (n.kind === 'tool' && n.toolCallId) toolNodes.set(n.toolCallId, n);
  const toolCalls: OutcomeToolCall[] = [];
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd: number | undefined;
  for (const n of nodes) {
    if (n.kind === 'run') continue;
    if (n.usage) {
      inputTokens += n.usage.inputTokens;
      outputTokens += n.usage.outputTokens;
    }
    const cost = n.attrs?.costUsd;
    if (typeof cost === 'number' && Number.isFinite(cost)) costUsd = (costUsd ?? 0) + cost;
  }
  for (const n of llm) {
    const calls = (n.output as { toolCalls?: { id: string; name: string; arguments: unknown }[] } | undefined)?.toolCalls ?? [];
    for (const c of calls) {
      const ran = toolNodes.get(c.id);
      toolCalls.push(ran ? { name: c.name, arguments: c.arguments, status: ran.status } : { name: c.name, arguments: c.arguments });
    }
  }
  const last = llm.at(-1);
  const text = (last?.output as { text?: unknown } | undefined)?.text;
  const status = root?.status ?? 'error';
  const out: CaseOutcome = { status, finalText: typeof text === 'string' ? text : '', toolCalls, turns: llm.length, inputTokens, outputTokens };
  const error = root?.error?.message ?? (status === 'error' ? llm.find((n) => n.error)?.error?.message : undefined);
  if (error) out.error = error;
  if (costUsd !== undefined) out.costUsd = costUsd;
  if (root?.endedAt !== undefined) out.latencyMs = root.endedAt - root.startedAt;
  return out;
}
