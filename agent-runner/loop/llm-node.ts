/**
 * One LLM call as one `llm` (or `sampling`) node: streams the provider's output as deltas,
 * records the raw request and events, and closes the node with the final output, usage and
 * timing. Errors are data: the node ends `error` or `cancelled` with the partial kept.
 */
import type { Message } from '../../shared/thread/messages';
import type { ModelConfig } from '../../shared/thread/model-config';
import type { LlmOutput, Usage } from '../../shared/protocol/nodes';
import type { LlmCallResult, Provider, StreamSink, ToolSpec } from '../providers/types';
import type { RunTree } from './tree';
import { messageText } from '../providers/content';

export interface LlmNodeRequest {
  kind: 'llm' | 'sampling';
  name: string;
  parentId?: string;
  model: ModelConfig;
  systemPrompt: string;
  messages: Message[];
  tools: ToolSpec[];
  /** The id of the assistant message this call writes (recorded in the node's input). */
  messageId?: string;
  /** The call is played back from this earlier run's recording (recorded in the node's attrs). */
  replayedFrom?: string;
  /** Adds the call's cost to its usage (prices.ts `withCost` for this model); absent: tokens only. */
  withCost?: (usage: Usage) => Usage;
}

export interface LlmNodeResult {
  nodeId: string;
  result: LlmCallResult;
  timing: { firstTokenMs?: number; durationMs: number };
}

/** The node output for a finished or partial call. */
export function llmOutput(r: Pick<LlmCallResult, 'content' | 'toolCalls' | 'stopReason'>): LlmOutput {
  const text = r.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('');
  const thinking = r.content.filter((p) => p.type === 'thinking').map((p) => (p as { thinking: string }).thinking).join('');
  const out: LlmOutput = { text, stopReason: r.stopReason };
  if (thinking) out.thinking = thinking;
  const serverTools = r.content.flatMap((p) => (p.type === 'server_tool' ? [p.block] : []));
  if (serverTools.length) out.serverTools = serverTools;
  if (r.toolCalls.length) {
    out.toolCalls = r.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, ...(c.rawArguments !== undefined ? { rawArguments: c.rawArguments } : {}) }));
  }
  return out;
}

export async function runLlmNode(
  tree: RunTree,
  provider: Provider,
  signal: AbortSignal,
  req: LlmNodeRequest,
): Promise<LlmNodeResult> {
  const modelName = `${req.model.provider}/${req.model.id}`;
  const last = req.messages[req.messages.length - 1];
  const nodeId = tree.open({
    kind: req.kind,
    name: req.name,
    parentId: req.parentId,
    model: modelName,
    input: {
      systemPrompt: req.systemPrompt,
      messageCount: req.messages.length,
      lastMessage: last ? messageText(last).slice(0, 2000) : '',
      tools: req.tools.map((t) => t.name),
      ...(req.messageId ? { messageId: req.messageId } : {}),
    },
    ...(req.replayedFrom ? { attrs: { replayedFrom: req.replayedFrom } } : {}),
  });
  const emitter = tree.emitter;
  const started = performance.now();
  let firstTokenMs: number | undefined;
  const first = () => {
    if (firstTokenMs === undefined) firstTokenMs = Math.round(performance.now() - started);
  };
  const toolIds = new Map<number, { id: string; name: string }>();
  let request: unknown;
  const events: { t: number; data: unknown }[] = [];
  const sink: StreamSink = {
    text: (d, index = 0) => {
      first();
      emitter.delta(nodeId, 'text', index, d);
    },
    thinking: (d, index = 0) => {
      first();
      emitter.delta(nodeId, 'thinking', index, d);
    },
    toolCallStart: (index, call) => {
      first();
      toolIds.set(index, call);
    },
    toolArgs: (index, d) => {
      first();
      const call = toolIds.get(index);
      emitter.delta(nodeId, 'tool_args', index, d, call?.id, call?.name);
    },
    request: (body) => {
      request = body;
    },
    event: (data) => {
      events.push({ t: Math.round(performance.now() - started), data });
    },
  };

  let result: LlmCallResult;
  try {
    result = await provider.stream({ model: req.model, systemPrompt: req.systemPrompt, messages: req.messages, tools: req.tools, signal }, sink);
  } catch (err) {
    // Providers must not reject; if one does, it is still data for the user, not a crash.
    result = {
      content: [],
      toolCalls: [],
      stopReason: 'error',
      error: { message: `The ${req.model.provider} provider failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`, details: err instanceof Error ? err.stack : undefined },
    };
  }
  if (signal.aborted && !result.error) result = { ...result, cancelled: true, stopReason: 'cancelled' };
  if (result.usage && req.withCost) result = { ...result, usage: req.withCost(result.usage) };
  emitter.record({ v: 1, type: 'llm_record', runId: tree.runId, nodeId, api: provider.api ?? req.model.provider, request: request ?? null, events });
  // A record can be large (a first request, a turn that adds images, a long recorded stream):
  // the next call waits until it has left the process.
  await emitter.drained();
  tree.close(nodeId, {
    status: result.cancelled ? 'cancelled' : result.error ? 'error' : 'completed',
    output: llmOutput(result),
    error: result.error,
    usage: result.usage,
    timing: firstTokenMs !== undefined ? { firstTokenMs } : {},
  });
  // The node's duration as the tree measured it: the message, the node and history agree.
  const timing = { firstTokenMs, durationMs: tree.get(nodeId)?.durationMs ?? 0 };
  return { nodeId, result, timing };
}
