/**
 * Wire-format builders for provider tests, following the public streaming docs of OpenAI Chat
 * Completions, OpenAI Responses and Anthropic Messages, and a sink that records every call.
 */
import type { StreamSink, LlmRequest } from '../../../agent-runner/providers/types';
import type { Message } from '../../../shared/thread/messages';
import type { ModelConfig } from '../../../shared/thread/model-config';
import { sseEvent } from '../../support/sse-server';

/** Every sink call in order, plus helpers to read the assembled stream. */
export interface TestSink extends StreamSink {
  calls: [string, ...unknown[]][];
  requests: unknown[];
  events: unknown[];
  /** Text deltas joined. */
  allText(): string;
  /** Thinking deltas joined. */
  allThinking(): string;
  /** Raw argument text per tool-call index. */
  args(): Record<number, string>;
}

export function testSink(onCall?: (call: [string, ...unknown[]]) => void): TestSink {
  const calls: [string, ...unknown[]][] = [];
  const requests: unknown[] = [];
  const events: unknown[] = [];
  const push = (c: [string, ...unknown[]]) => {
    calls.push(c);
    onCall?.(c);
  };
  const join = (kind: string) => calls.filter((c) => c[0] === kind).map((c) => c[1]).join('');
  const sink = {
    calls,
    requests,
    events,
    text: (delta: string, index?: number) => push(['text', delta, index]),
    thinking: (delta: string, index?: number) => push(['thinking', delta, index]),
    allText: () => join('text'),
    allThinking: () => join('thinking'),
    toolCallStart: (index: number, call: { id: string; name: string }) => push(['toolCallStart', index, call]),
    toolArgs: (index: number, delta: string) => push(['toolArgs', index, delta]),
    request: (body: unknown) => {
      requests.push(body);
      push(['request', body]);
    },
    event: (data: unknown) => {
      events.push(data);
      push(['event', data]);
    },
    args: () => {
      const out: Record<number, string> = {};
      for (const c of calls) if (c[0] === 'toolArgs') out[c[1] as number] = (out[c[1] as number] ?? '') + (c[2] as string);
      return out;
    },
  };
  return sink;
}

/** A request with one user message (or the given messages). */
export function llmRequest(model: Partial<ModelConfig> & { id: string }, opts: Partial<Omit<LlmRequest, 'model'>> = {}): LlmRequest {
  const messages: Message[] = opts.messages ?? [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Hello' }] }];
  return {
    model: { provider: model.provider ?? 'openai', id: model.id, params: model.params ?? {}, ...(model.replay ? { replay: model.replay } : {}) },
    systemPrompt: opts.systemPrompt ?? 'You are terse.',
    messages,
    tools: opts.tools ?? [],
    signal: opts.signal ?? new AbortController().signal,
  };
}

// --- OpenAI Chat Completions -------------------------------------------------------------

/** One `chat.completion.chunk` for choice 0. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return {
    id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    object: 'chat.completion.chunk',
    created: 1741569952,
    model: 'gpt-4.1-2025-04-14',
    service_tier: 'default',
    system_fingerprint: 'fp_f7a584cf3f',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

/** The last chunk when `stream_options.include_usage` is set: no choices, usage. */
export function chatUsageChunk(prompt: number, completion: number, cached = 0, reasoning = 0): Record<string, unknown> {
  return {
    id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    object: 'chat.completion.chunk',
    created: 1741569952,
    model: 'gpt-4.1-2025-04-14',
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
  };
}

/** A whole Chat Completions SSE body: the chunks, then `data: [DONE]` unless `done` is false. */
export function chatSse(chunks: unknown[], done = true): string {
  return chunks.map((c) => sseEvent(c)).join('') + (done ? 'data: [DONE]\n\n' : '');
}

/** A plain text reply streamed in the given pieces, with usage. */
export function chatTextSse(pieces: string[], usage: [number, number] = [12, 5]): string {
  return chatSse([
    chatChunk({ role: 'assistant', content: '', refusal: null }),
    ...pieces.map((p) => chatChunk({ content: p })),
    chatChunk({}, 'stop'),
    chatUsageChunk(usage[0], usage[1]),
  ]);
}

// --- Anthropic Messages ------------------------------------------------------------------

/** One Anthropic SSE event (`event: <type>` + data). */
export const anth = (data: { type: string } & Record<string, unknown>): string => sseEvent(data, data.type);

export function anthMessageStart(input = 25, cacheRead = 0, id = 'msg_01XFDUDYJgAACzvnptvVoYEL'): string {
  return anth({
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-sonnet-4-5-20250929',
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: cacheRead, output_tokens: 1 },
    },
  });
}

export function anthTextBlock(index: number, pieces: string[]): string {
  return (
    anth({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }) +
    pieces.map((t) => anth({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } })).join('') +
    anth({ type: 'content_block_stop', index })
  );
}

/** A thinking block at `index`: its `pieces` as thinking deltas, then its `signature`. */
export function anthThinkingBlock(index: number, pieces: string[], signature: string): string {
  return (
    anth({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } }) +
    pieces.map((t) => anth({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: t } })).join('') +
    anth({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } }) +
    anth({ type: 'content_block_stop', index })
  );
}

/** A tool_use block at `index` calling `name` (call id `id`), its input JSON streamed as `json` pieces. */
export function anthToolUseBlock(index: number, id: string, name: string, json: string[]): string {
  return (
    anth({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }) +
    json.map((partial_json) => anth({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })).join('') +
    anth({ type: 'content_block_stop', index })
  );
}

export function anthEnd(stopReason: string, output: number): string {
  return anth({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: output } }) + anth({ type: 'message_stop' });
}

// --- OpenAI Responses --------------------------------------------------------------------

let seq = 0;
/** One Responses API SSE event with a sequence number. */
export const resp = (data: { type: string } & Record<string, unknown>): string => sseEvent({ ...data, sequence_number: seq++ }, data.type);

export function respResponse(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'resp_67ccd2bed1ec8190b14f964abc054267', object: 'response', created_at: 1741476542, status, model: 'gpt-4.1-2025-04-14', output: [], ...extra };
}
