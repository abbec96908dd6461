/**
 * The OpenTelemetry GenAI semantic conventions as Stepwise writes and reads them
 * (docs/architecture.md#traces): attribute names in their exact spelling, well-known provider
 * names, finish reasons, and Stepwise messages ↔ the conventions' message JSON (`role`, `parts`
 * of type `text`, `reasoning`, `tool_call`, `tool_call_response`, `blob`, `uri`; the JSON
 * schemas gen-ai-input-messages.json / gen-ai-output-messages.json /
 * gen-ai-system-instructions.json of open-telemetry/semantic-conventions, docs/gen-ai/, status
 * Development). Browser-safe: the exporter (main/core/traces/) and the importer
 * (shared/thread/import/otlp-genai.ts) share it.
 */
import type { Message, ToolCall, ToolOutput } from '../thread/messages';

/** Attribute names (semantic conventions, gen-ai-spans.md and gen-ai-agent-spans.md). */
export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  temperature: 'gen_ai.request.temperature',
  maxTokens: 'gen_ai.request.max_tokens',
  topP: 'gen_ai.request.top_p',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  /** Opt-in content attributes: JSON text of the message and part shapes above. */
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  toolDefinitions: 'gen_ai.tool.definitions',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
} as const;

/** Stepwise's own attributes: what the conventions have no name for, so a round trip keeps it. */
export const STEPWISE = {
  nodeId: 'stepwise.node.id',
  nodeKind: 'stepwise.node.kind',
  nodeName: 'stepwise.node.name',
  nodeStatus: 'stepwise.node.status',
  runId: 'stepwise.run.id',
  runMode: 'stepwise.run.mode',
  threadTitle: 'stepwise.thread.title',
  reasoningTokens: 'stepwise.usage.reasoning_tokens',
  costUsd: 'stepwise.usage.cost_usd',
  stopReason: 'stepwise.response.stop_reason',
} as const;

/** `gen_ai.operation.name` values Stepwise writes. */
export type GenAiOperation = 'invoke_agent' | 'chat' | 'execute_tool';

/** Stepwise provider id → the conventions' well-known `gen_ai.provider.name` (others are written as they are). */
const PROVIDER_NAMES: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  gemini: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
  mistral: 'mistral_ai',
  groq: 'groq',
  deepseek: 'deepseek',
  xai: 'x_ai',
  perplexity: 'perplexity',
  cohere: 'cohere',
  azure: 'azure.ai.openai',
  bedrock: 'aws.bedrock',
};

/** The `gen_ai.provider.name` of a Stepwise provider id. */
export function providerName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

/** The Stepwise provider id of a `gen_ai.provider.name` (the first id that maps to it, else the name). */
export function providerIdOf(name: string): string {
  for (const [id, n] of Object.entries(PROVIDER_NAMES)) if (n === name) return id;
  return name;
}

/** A provider's stop reason → the conventions' finish reason (`stop`, `length`, `content_filter`, `tool_call`, `error`). */
export function finishReason(stopReason: string | undefined): string {
  switch (stopReason) {
    case undefined:
    case 'stop':
    case 'end_turn':
    case 'stop_sequence':
    case 'completed':
      return 'stop';
    case 'tool_calls':
    case 'tool_use':
    case 'function_call':
      return 'tool_call';
    case 'length':
    case 'max_tokens':
    case 'max_output_tokens':
      return 'length';
    case 'content_filter':
    case 'refusal':
      return 'content_filter';
    default:
      return stopReason;
  }
}

/** A message part as the conventions write it; unknown part types keep their fields. */
export type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id?: string | null; name: string; arguments?: unknown }
  | { type: 'tool_call_response'; id?: string | null; response: unknown }
  | { type: 'blob'; modality: string; mime_type?: string; content: string }
  | { type: 'uri'; modality: string; mime_type?: string; uri: string }
  | { type: string; [k: string]: unknown };

/** One message of `gen_ai.input.messages` / `gen_ai.output.messages` (`finish_reason` on output only). */
export interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  name?: string;
  finish_reason?: string;
}

/** A tool result as `response` / `gen_ai.tool.call.result`: its text when it is all text, else its content parts. */
export function toolResponse(out: ToolOutput): unknown {
  const texts = out.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
  if (texts.length === out.content.length && !out.structuredContent && !out.isError) return texts.join('\n');
  return { content: out.content, ...(out.structuredContent !== undefined ? { structuredContent: out.structuredContent } : {}), isError: out.isError };
}

/** The tool output a `response` / `gen_ai.tool.call.result` stands for (the inverse of {@link toolResponse}). */
export function toolOutputOf(response: unknown): ToolOutput {
  if (typeof response === 'string') return { content: [{ type: 'text', text: response }], isError: false };
  const r = response as { content?: unknown; structuredContent?: unknown; isError?: unknown } | null;
  if (r && typeof r === 'object' && Array.isArray(r.content)) {
    return { content: r.content as ToolOutput['content'], ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}), isError: r.isError === true };
  }
  return { content: [{ type: 'text', text: JSON.stringify(response ?? null) }], isError: false };
}

/** An assistant message's tool call as a `tool_call` part. */
function callPart(c: ToolCall): GenAiPart {
  return { type: 'tool_call', id: c.id, name: c.name, arguments: c.custom ? (c.rawArguments ?? '') : c.arguments };
}

/**
 * Stepwise messages → the conventions' messages: a user message's text, images (`blob` with
 * base64 content, or `uri`) and documents; an assistant message's text, thinking (`reasoning`)
 * and tool calls; each answered tool call then as a `tool` message with its
 * `tool_call_response`, in the order of the calls.
 */
export function toGenAiMessages(messages: readonly Message[]): GenAiMessage[] {
  const out: GenAiMessage[] = [];
  for (const m of messages) {
    const parts: GenAiPart[] = [];
    for (const p of m.content) {
      if (p.type === 'text') parts.push({ type: 'text', content: p.text });
      else if (p.type === 'thinking') parts.push({ type: 'reasoning', content: p.redacted ? '' : p.thinking });
      else if (p.type === 'image' && 'data' in p) parts.push({ type: 'blob', modality: 'image', mime_type: p.mimeType, content: p.data });
      else if (p.type === 'image' && 'url' in p) parts.push({ type: 'uri', modality: 'image', ...(p.mimeType ? { mime_type: p.mimeType } : {}), uri: p.url });
      else parts.push({ ...(p as Record<string, unknown>), type: `stepwise.${p.type}` });
    }
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) parts.push(callPart(c));
    out.push({ role: m.role, parts });
    if (m.role === 'assistant') {
      const answered = (m.toolCalls ?? []).filter((c) => c.output);
      if (answered.length) out.push({ role: 'tool', parts: answered.map((c) => ({ type: 'tool_call_response', id: c.id, response: toolResponse(c.output as ToolOutput) })) });
    }
  }
  return out;
}
