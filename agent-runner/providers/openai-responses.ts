/**
 * OpenAI Responses API through the official `openai` client, streamed.
 * Wire format: https://platform.openai.com/docs/api-reference/responses-streaming
 *
 * Requests are stateless (`store: false`, the whole conversation as `input`); reasoning
 * summaries stream as thinking but are not sent back on later turns.
 */
import type OpenAI from 'openai';
import type { LlmRequest, Provider } from './types';
import { BaseHandler } from './live';
import { createSdkProvider, typedErrorEvent, type SdkProviderOptions, type WireApi } from './sdk-provider';
import { dataUrl, imageUrlOf, openAiDocument, toolOutputParts, userParts } from './content';
import { refusalError, streamErrorEvent } from './errors';
import { OPENAI_CLIENT } from './openai-chat';
import { responsesControls } from './request-params';

type Item = Record<string, unknown>;

/** Builds the Responses request body. */
export function buildResponsesRequest(req: LlmRequest): Record<string, unknown> {
  const input: Item[] = [];
  for (const m of req.messages) {
    if (m.role === 'user') {
      input.push({
        role: 'user',
        content: userParts(m).map((p) =>
          p.type === 'text' ? { type: 'input_text', text: p.text } : p.type === 'document' ? openAiDocument(p, 'responses') : { type: 'input_image', image_url: imageUrlOf(p), detail: p.detail ?? 'auto' },
        ),
      });
      continue;
    }
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (text) input.push({ role: 'assistant', content: text });
    for (const c of m.toolCalls ?? []) {
      input.push(
        c.custom
          ? { type: 'custom_tool_call', call_id: c.id, name: c.name, input: c.rawArguments ?? '' }
          : { type: 'function_call', call_id: c.id, name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.arguments) },
      );
    }
    for (const c of m.toolCalls ?? []) {
      const out = toolOutputParts(c);
      const output = out.images.length
        ? [...(out.text ? [{ type: 'input_text', text: out.text }] : []), ...out.images.map((i) => ({ type: 'input_image', image_url: dataUrl(i) }))]
        : out.text;
      input.push({ type: c.custom ? 'custom_tool_call_output' : 'function_call_output', call_id: c.id, output });
    }
  }
  const p = req.model.params;
  const body: Record<string, unknown> = { model: req.model.id, input, stream: true, store: false };
  if (req.systemPrompt) body.instructions = req.systemPrompt;
  if (req.tools.length) {
    body.tools = req.tools.map((t) => {
      const description = t.description ? { description: t.description } : {};
      // A custom (free-form) tool: openai `CustomTool`, its input text shaped by `format`.
      if (t.custom) return { type: 'custom', name: t.name, ...description, ...(t.custom.format ? { format: t.custom.format } : {}) };
      return { type: 'function', name: t.name, ...description, parameters: t.parameters, strict: t.strict ?? false };
    });
  }
  if (p.temperature !== undefined) body.temperature = p.temperature;
  if (p.maxTokens !== undefined) body.max_output_tokens = p.maxTokens;
  return { ...body, ...responsesControls(p, req.tools.length > 0), ...(p.extra ?? {}) };
}

const INCOMPLETE: Record<string, string> = { max_output_tokens: 'length', content_filter: 'content_filter' };

/**
 * Turns Responses stream events into sink calls; output items are keyed by `output_index`.
 * Function calls and custom (free-form) tool calls both become tool calls; a refusal content
 * part, or an `incomplete` response cut by the content filter, ends the call as a refusal.
 */
export class OpenAIResponsesHandler extends BaseHandler {
  /** The refusal text streamed so far (`response.refusal.delta`). */
  private refusalText = '';

  protected missingEnd(): string {
    return 'no response.completed';
  }

  protected handle(ev: Record<string, any>): void {
    if (this.completed) return;
    const o = `o${ev.output_index ?? 0}`;
    switch (ev.type) {
      case 'response.output_item.added':
      case 'response.output_item.done': {
        const item = ev.item ?? {};
        // A custom (free-form) tool call's text is `input`; a function call's is `arguments`.
        const custom = item.type === 'custom_tool_call';
        if (!custom && item.type !== 'function_call') return;
        this.acc.toolCall(o, { id: item.call_id ?? item.id, name: item.name, custom });
        const text = custom ? item.input : item.arguments;
        if (typeof text === 'string') this.acc.completeToolArgs(o, text);
        return;
      }
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        this.acc.toolArgs(o, String(ev.delta ?? ''));
        return;
      case 'response.function_call_arguments.done':
      case 'response.custom_tool_call_input.done': {
        const text = ev.type === 'response.custom_tool_call_input.done' ? ev.input : ev.arguments;
        if (typeof text === 'string') this.acc.completeToolArgs(o, text);
        return;
      }
      case 'response.output_text.delta':
        this.acc.text(`${o}c${ev.content_index ?? 0}`, String(ev.delta ?? ''));
        return;
      case 'response.refusal.delta':
        this.refusalText += String(ev.delta ?? '');
        this.acc.text(`${o}c${ev.content_index ?? 0}`, String(ev.delta ?? ''));
        return;
      case 'response.reasoning_summary_text.delta':
        this.acc.thinking(`${o}s${ev.summary_index ?? 0}`, String(ev.delta ?? ''));
        return;
      case 'response.reasoning_text.delta':
        this.acc.thinking(`${o}r${ev.content_index ?? 0}`, String(ev.delta ?? ''));
        return;
      case 'response.completed':
        this.usage(ev.response?.usage);
        this.acc.stopReason = this.acc.toolCallCount ? 'tool_calls' : 'stop';
        if (this.refusalText) this.acc.refusal(refusalError(this.ctx, 'a refusal', this.refusalText));
        this.completed = true;
        return;
      case 'response.incomplete': {
        this.usage(ev.response?.usage);
        const reason = String(ev.response?.incomplete_details?.reason ?? 'incomplete');
        if (reason === 'content_filter') this.acc.refusal(refusalError(this.ctx, 'incomplete: content_filter', this.refusalText || 'the content filter stopped the reply'));
        else this.setStopReason(reason, INCOMPLETE);
        this.completed = true;
        return;
      }
      case 'response.failed':
        this.usage(ev.response?.usage);
        this.streamFailed(streamErrorEvent(this.ctx, { error: ev.response?.error ?? { message: 'the response failed' } }));
        return;
      case 'error':
        this.streamFailed(streamErrorEvent(this.ctx, ev));
        return;
      default:
        return;
    }
  }

  private usage(u: Record<string, any> | undefined | null): void {
    if (!u) return;
    const cached = u.input_tokens_details?.cached_tokens;
    const reasoning = u.output_tokens_details?.reasoning_tokens;
    this.acc.usage = {
      inputTokens: u.input_tokens ?? 0,
      outputTokens: u.output_tokens ?? 0,
      ...(cached ? { cacheReadTokens: cached } : {}),
      ...(reasoning ? { reasoningTokens: reasoning } : {}),
    };
  }
}

/** The Responses wire API on the `openai` client. */
const responsesApi: WireApi<OpenAI> = {
  sdk: OPENAI_CLIENT,
  body: buildResponsesRequest,
  Handler: OpenAIResponsesHandler,
  send: (client, body, signal) => client.responses.create(body as any, { signal }),
  // The stream's `error` event: `{"type": "error", "code", "message", …}`.
  errorEvent: typedErrorEvent((error) => ({ type: 'error', ...error })),
};

/** A Responses API provider. */
export const createOpenAIResponsesProvider = (opts: SdkProviderOptions): Provider => createSdkProvider(responsesApi, opts);
