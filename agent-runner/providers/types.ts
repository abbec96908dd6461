/**
 * The provider interface: one streamed LLM call. A provider turns one wire API (OpenAI Chat
 * Completions, OpenAI Responses, Anthropic Messages, scripted, replay) into sink calls and one
 * result. Errors are data (docs/architecture.md#the-execution-tree): `stream` never rejects; failures come back in `error`
 * with the partial output kept.
 */
import type { AssistantMessage, AssistantPart, Message, ToolCall } from '../../shared/thread/messages';
import type { CustomToolFormat } from '../../shared/thread/tools';
import type { ModelConfig } from '../../shared/thread/model-config';
import type { NodeError, Usage } from '../../shared/protocol/nodes';
import type { ProviderConfig } from '../../shared/protocol/runner';

/** A tool as the model sees it: name, description, JSON Schema of the arguments. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  /** A custom (free-form) tool: the model writes text, not JSON (OpenAI Responses `custom` tools). */
  custom?: { format?: CustomToolFormat };
  /** OpenAI strict mode for the arguments (function tools that set it). */
  strict?: boolean;
}

export interface LlmRequest {
  model: ModelConfig;
  systemPrompt: string;
  messages: Message[];
  tools: ToolSpec[];
  signal: AbortSignal;
}

/**
 * Where a provider reports what streams in. Indexes: `text`/`thinking` use the content index
 * (0 when the API has one stream); tool calls use their index in the response.
 */
export interface StreamSink {
  text(delta: string, index?: number): void;
  thinking(delta: string, index?: number): void;
  /** A tool call began (id and name known). Call before its first `toolArgs`. */
  toolCallStart(index: number, call: { id: string; name: string }): void;
  toolArgs(index: number, delta: string): void;
  /** The exact request body sent (recorded for the inspector and replay). */
  request(body: unknown): void;
  /** One raw stream event as received (recorded for the inspector and replay). */
  event(data: unknown): void;
}

/**
 * Normalised stop reasons. `length` means the output was cut by the token limit: its tool calls
 * are not executed. Provider-specific reasons that map to none of these are kept as is.
 */
export type StopReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | 'cancelled' | (string & {});

export interface LlmCallResult {
  /** Text, thinking and provider-run tool activity (`server_tool` parts), in the order received. */
  content: AssistantPart[];
  toolCalls: ToolCall[];
  usage?: Usage;
  stopReason: StopReason;
  /** Set when the call failed; the partial content above is kept. */
  error?: NodeError;
  /** The call was aborted through the signal. */
  cancelled?: boolean;
}

export interface Provider {
  /** The wire API (`openai-completions`, `anthropic-messages`, …), recorded with each call for replay. */
  api?: string;
  stream(req: LlmRequest, sink: StreamSink): Promise<LlmCallResult>;
}

/** Builds a provider from its configuration. `$ENV` api keys are resolved by the factory. */
export type ProviderFactory = (config: ProviderConfig, env: NodeJS.ProcessEnv) => Provider;

/** Converts a finished call into the assistant message the thread stores. */
export function toAssistantMessage(id: string, r: LlmCallResult, model: string, timing?: AssistantMessage['timing']): AssistantMessage {
  const msg: AssistantMessage = { id, role: 'assistant', content: r.content, model, stopReason: r.stopReason };
  if (r.toolCalls.length) msg.toolCalls = r.toolCalls;
  if (r.usage) msg.usage = r.usage;
  if (timing) msg.timing = timing;
  if (r.error) msg.errorMessage = r.error.message;
  return msg;
}
