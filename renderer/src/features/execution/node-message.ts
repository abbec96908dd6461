/**
 * The thread message an execution-tree node stands for (docs/architecture.md#the-execution-tree),
 * for "Show in thread". Nodes and messages are linked by ids where there are ids, else by what
 * the run added:
 * - a `tool` node: the message holding its tool call (`toolCallId`; tool call ids are unique in
 *   a thread);
 * - an `llm` node that made tool calls: the message holding them;
 * - an `llm` node that only answered: the assistant message with its reply text, among the
 *   messages its run added when those are known (the run record), the k-th such message for
 *   the k-th such node of its parent;
 * - a `run` node: the first message the run added;
 * - a `sampling` or `agent` node, or any node none of these finds: its parent's message.
 */
import type { ExecNode } from '../../../../shared/protocol/nodes';
import type { Message } from '../../../../shared/thread/messages';

/** An llm node's output as the tree carries it. */
interface LlmOut {
  text?: string;
  toolCalls?: { id: string }[];
}

const textOf = (m: Message) => (m.content.find((p) => p.type === 'text') as { text: string } | undefined)?.text ?? '';

/**
 * The id of the message `nodeId` stands for in `messages`, or undefined. `nodes` are the nodes
 * of its run (the live tree or the run record); `runMessageIds` are the ids of the messages the
 * run added, in order, when known.
 */
export function messageForNode(messages: readonly Message[], nodeId: string, nodes: readonly ExecNode[], runMessageIds?: readonly string[]): string | undefined {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const byCall = (callId: string) => messages.find((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.id === callId))?.id;
  const added = runMessageIds ? new Set(runMessageIds) : undefined;
  const seen = new Set<string>();
  for (let node = byId.get(nodeId); node && !seen.has(node.id); node = node.parentId ? byId.get(node.parentId) : undefined) {
    seen.add(node.id);
    if (node.toolCallId) {
      const id = byCall(node.toolCallId);
      if (id) return id;
    }
    if (node.kind === 'llm') {
      const out = (node.output ?? {}) as LlmOut;
      for (const c of out.toolCalls ?? []) {
        const id = byCall(c.id);
        if (id) return id;
      }
      if (out.text) {
        const candidates = messages.filter((m) => m.role === 'assistant' && textOf(m) === out.text && (!added || added.has(m.id)));
        if (candidates.length) {
          // The k-th answer with this text under the same parent is the k-th such message.
          const twins = nodes
            .filter((n) => n.kind === 'llm' && n.parentId === node!.parentId && ((n.output ?? {}) as LlmOut).text === out.text)
            .sort((a, b) => a.startedAt - b.startedAt);
          const k = Math.max(0, twins.findIndex((n) => n.id === node!.id));
          return candidates[Math.min(candidates.length - 1, k)].id;
        }
      }
    }
    if (node.kind === 'run' && runMessageIds) {
      const first = runMessageIds.find((id) => messages.some((m) => m.id === id));
      if (first) return first;
    }
  }
  return undefined;
}
