/**
 * OpenAI Chat Completions (and any OpenAI-compatible server: Ollama, LM Studio, vLLM,
 * OpenRouter, DeepSeek …) through the official `openai` client, streamed.
 * Wire format: https://platform.openai.com/docs/api-reference/chat/streaming
 *
 * Token limit: `max_completion_tokens` for OpenAI's own endpoint, `max_tokens` for any other
 * base URL (the field every compatible server understands).
 */
import OpenAI from 'openai';
import type { LlmRequest, Provider } from './types';
import { BaseHandler } from './live';
import { createSdkProvider, type SdkClient, type SdkProviderOptions, type WireApi } from './sdk-provider';
import { dataUrl, imageUrlOf, openAiDocument, toolOutputParts, userParts } from './content';
import { refusalError, streamErrorEvent } from './errors';
import { chatControls } from './request-params';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The `openai` client, on OpenAI's own endpoint unless configured otherwise: both OpenAI wire APIs use it. */
export const OPENAI_CLIENT: SdkClient<OpenAI> = { defaultBaseUrl: OPENAI_BASE_URL, create: (options) => new OpenAI(options) };

/** True for OpenAI's own endpoint, false for compatible servers. */
export const isOfficialOpenAI = (baseUrl: string): boolean => /^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl);

type ChatMessage = Record<string, unknown>;

/** Builds the Chat Completions request body (stream on, usage in the last chunk). */
export function buildChatRequest(req: LlmRequest, official: boolean): Record<string, unknown> {
  const messages: ChatMessage[] = [];
  if (req.systemPrompt) messages.push({ role: 'system', content: req.systemPrompt });
  for (const m of req.messages) {
    if (m.role === 'user') {
      const parts = userParts(m);
      const hasImage = parts.some((p) => p.type !== 'text');
      messages.push({
        role: 'user',
        content: hasImage
          ? parts.map((p) =>
              p.type === 'text' ? { type: 'text', text: p.text } : p.type === 'document' ? openAiDocument(p, 'chat') : { type: 'image_url', image_url: { url: imageUrlOf(p), ...(p.detail ? { detail: p.detail } : {}) } },
            )
          : parts.map((p) => (p.type === 'text' ? p.text : '')).join(''),
      });
      continue;
    }
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    const calls = m.toolCalls ?? [];
    if (!text && !calls.length) continue;
    const msg: ChatMessage = { role: 'assistant', content: text || null };
    if (calls.length) {
      msg.tool_calls = calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.arguments) },
      }));
    }
    messages.push(msg);
    const images: ChatMessage[] = [];
    for (const c of calls) {
      const out = toolOutputParts(c);
      messages.push({ role: 'tool', tool_call_id: c.id, content: out.text || (out.images.length ? '(see the image below)' : '') });
      for (const img of out.images) images.push({ type: 'image_url', image_url: { url: dataUrl(img) } });
    }
    // Tool messages carry text only: images from tool results follow in one user message.
    if (images.length) messages.push({ role: 'user', content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...images] });
  }
  const p = req.model.params;
  const body: Record<string, unknown> = {
    model: req.model.id,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (req.tools.length) {
    body.tools = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters, ...(t.strict !== undefined ? { strict: t.strict } : {}) },
    }));
  }
  if (p.temperature !== undefined) body.temperature = p.temperature;
  if (p.maxTokens !== undefined) body[official ? 'max_completion_tokens' : 'max_tokens'] = p.maxTokens;
  return { ...body, ...chatControls(p, req.tools.length > 0), ...(p.extra ?? {}) };
}

const FINISH: Record<string, string> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/**
 * Text and thinking of a `delta.content` that is an array of parts (Mistral / Magistral):
 * `{type:'text', text}` and `{type:'thinking', thinking: [{type:'text', text}, …]}` (thinking
 * may also be a plain string). Parts of other types are skipped.
 */
export function contentParts(content: unknown[]): { kind: 'text' | 'thinking'; text: string }[] {
  const out: { kind: 'text' | 'thinking'; text: string }[] = [];
  for (const part of content) {
    if (typeof part === 'string') out.push({ kind: 'text', text: part });
    if (!part || typeof part !== 'object') continue;
    const p = part as Record<string, unknown>;
    if (p.type === 'text' && typeof p.text === 'string') out.push({ kind: 'text', text: p.text });
    else if (p.type === 'thinking') {
      const inner = typeof p.thinking === 'string' ? [{ type: 'text', text: p.thinking }] : Array.isArray(p.thinking) ? p.thinking : [];
      for (const t of inner as Record<string, unknown>[]) if (t && typeof t.text === 'string') out.push({ kind: 'thinking', text: t.text });
    }
  }
  return out;
}

/**
 * Turns Chat Completions chunks into sink calls. Tool calls are keyed by `index`, by `id`
 * when a server leaves the index out, and go to the last call when a chunk has neither. A new
 * `id` at an index already used (Cerebras streams calls one after another at index 0) starts a
 * new call.
 */
export class OpenAIChatHandler extends BaseHandler {
  private lastToolKey?: string;
  /** The current call key of each tool-call index (a new id at an index moves it on). */
  private keyOfIndex = new Map<number, string>();
  /** Refusal text (`delta.refusal`): the reply is a refusal, with these words. */
  private refusalText = '';

  protected missingEnd(): string {
    return 'no finish_reason and no [DONE]';
  }

  protected handle(ev: Record<string, unknown>): void {
    if (ev.error) {
      this.streamFailed(streamErrorEvent(this.ctx, ev));
      return;
    }
    const usage = ev.usage as Record<string, any> | null | undefined;
    if (usage && typeof usage === 'object') {
      this.acc.usage = {
        inputTokens: usage.prompt_tokens ?? 0,
        outputTokens: usage.completion_tokens ?? 0,
        ...(usage.prompt_tokens_details?.cached_tokens ? { cacheReadTokens: usage.prompt_tokens_details.cached_tokens } : {}),
        ...(usage.completion_tokens_details?.reasoning_tokens ? { reasoningTokens: usage.completion_tokens_details.reasoning_tokens } : {}),
      };
    }
    const choices = (ev.choices ?? []) as Record<string, any>[];
    for (const choice of choices) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = (choice.delta ?? {}) as Record<string, any>;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === 'string') this.acc.thinking('thinking', reasoning);
      if (typeof delta.content === 'string') this.acc.text('text', delta.content);
      else if (Array.isArray(delta.content)) for (const p of contentParts(delta.content)) this.acc[p.kind](p.kind, p.text);
      if (typeof delta.refusal === 'string') {
        this.acc.text('text', delta.refusal);
        this.refusalText += delta.refusal;
      }
      for (const tc of (delta.tool_calls ?? []) as ChunkToolCall[]) this.toolCallDelta(tc);
      if (choice.finish_reason) this.finishReason(String(choice.finish_reason));
    }
  }

  /** The end of the reply: a content filter or a refusal ends it as a refusal, with its words. */
  private finishReason(reason: string): void {
    this.completed = true;
    if (reason === 'content_filter') this.acc.refusal(refusalError(this.ctx, 'finish reason "content_filter"', this.refusalText || 'the content filter stopped the reply'));
    else if (this.refusalText && !this.acc.toolCallCount) this.acc.refusal(refusalError(this.ctx, 'a refusal', this.refusalText));
    else this.setStopReason(reason, FINISH);
  }

  /** The key of the call a delta at `index` belongs to: a new id at a used index starts a new call. */
  private indexKey(index: number, id: string | undefined): string {
    const current = this.keyOfIndex.get(index);
    const seenId = current === undefined ? undefined : this.acc.toolCallId(current);
    if (current !== undefined && !(id && seenId && id !== seenId)) return current;
    const key = current === undefined ? `i${index}` : `i${index}#${this.acc.toolCallCount}`;
    this.keyOfIndex.set(index, key);
    return key;
  }

  private toolCallDelta(tc: ChunkToolCall): void {
    let key: string;
    if (typeof tc.index === 'number') key = this.indexKey(tc.index, tc.id);
    else if (tc.id) key = `id:${tc.id}`;
    else key = this.lastToolKey ?? 'i0';
    this.lastToolKey = key;
    this.acc.toolCall(key, { id: tc.id ?? (this.acc.hasToolCall(key) ? undefined : `call_${this.acc.toolCallCount}`), name: tc.function?.name });
    if (tc.function?.arguments) this.acc.toolArgs(key, tc.function.arguments);
  }
}

/** The Chat Completions wire API on the `openai` client. */
const chatApi: WireApi<OpenAI> = {
  sdk: OPENAI_CLIENT,
  body: (req, baseUrl) => buildChatRequest(req, isOfficialOpenAI(baseUrl)),
  Handler: OpenAIChatHandler,
  send: (client, body, signal) => client.chat.completions.create(body as any, { signal }),
  // Compatible servers put the error in a chunk of its own: `{"error": {…}}`.
  errorEvent: (error) => ({ error }),
};

/** A Chat Completions provider (OpenAI or any compatible base URL). */
export const createOpenAIChatProvider = (opts: SdkProviderOptions): Provider => createSdkProvider(chatApi, opts);
