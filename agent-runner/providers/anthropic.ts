/**
 * Anthropic Messages through the official `@anthropic-ai/sdk` client, streamed, with extended
 * thinking (signatures sent back on later turns) and tool use.
 * Wire format: https://docs.anthropic.com/en/docs/build-with-claude/streaming
 *
 * `max_tokens` is required by the API: `params.maxTokens`, else 4096, or budget + 4096 when
 * thinking is on (`params.reasoning.budgetTokens` > 0) so the budget always fits.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { LlmRequest, Provider } from './types';
import type { DocumentPart, ImagePart, ImageUrlPart } from '../../shared/thread/messages';
import { BaseHandler } from './live';
import { createSdkProvider, typedErrorEvent, type SdkProviderOptions, type WireApi } from './sdk-provider';
import { NO_TOOL_OUTPUT, partText, userParts } from './content';
import { protocolError, refusalError, streamErrorEvent } from './errors';
import { anthropicControls } from './request-params';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;

const imageBlock = (p: ImagePart | ImageUrlPart): Block =>
  'url' in p ? { type: 'image', source: { type: 'url', url: p.url } } : { type: 'image', source: { type: 'base64', media_type: p.mimeType, data: p.data } };

/** A `document` block as Anthropic reads it: its source, title, context and citation setting. */
function documentBlock(p: DocumentPart): Block {
  const s = p.source;
  const source = s.type === 'url' ? { type: 'url', url: s.url } : { type: s.type, media_type: s.mediaType, data: s.data };
  return { type: 'document', source, ...(p.title !== undefined ? { title: p.title } : {}), ...(p.context !== undefined ? { context: p.context } : {}), ...(p.citations ? { citations: p.citations } : {}) };
}

/** One part of a user message as a block, with its `cache_control`. */
function userBlock(p: ReturnType<typeof userParts>[number]): Block {
  const block = p.type === 'text' ? { type: 'text', text: p.text } : p.type === 'document' ? documentBlock(p) : imageBlock(p);
  return p.cacheControl ? { ...block, cache_control: p.cacheControl } : block;
}

/** Builds the Messages request body. Tool results go back as user `tool_result` blocks. */
export function buildAnthropicRequest(req: LlmRequest): Record<string, unknown> {
  const messages: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const push = (role: 'user' | 'assistant', content: Block[]) => {
    if (!content.length) return;
    const last = messages.at(-1);
    // Consecutive turns of one role merge: tool results and the user's next words share a turn.
    if (last?.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  for (const m of req.messages) {
    if (m.role === 'user') {
      push('user', userParts(m).map(userBlock).filter((b) => b.type !== 'text' || b.text));
      continue;
    }
    const blocks: Block[] = [];
    for (const p of m.content) {
      if (p.type === 'server_tool') {
        // Provider-run tool activity goes back exactly as it came, in its place.
        blocks.push(p.block);
      } else if (p.type === 'text') {
        if (p.text) blocks.push({ type: 'text', text: p.text });
      } else if (p.redacted && p.data) {
        blocks.push({ type: 'redacted_thinking', data: p.data });
      } else if (p.signature) {
        // Thinking without a signature (another provider's) cannot be sent back.
        blocks.push({ type: 'thinking', thinking: p.thinking, signature: p.signature });
      }
    }
    const calls = m.toolCalls ?? [];
    for (const c of calls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
    push('assistant', blocks);
    if (!calls.length) continue;
    push(
      'user',
      calls.map((c) => {
        const content: Block[] = c.output
          ? c.output.content.map((p) => (p.type === 'image' ? imageBlock(p) : { type: 'text', text: partText(p) })).filter((b) => b.type !== 'text' || b.text)
          : [{ type: 'text', text: NO_TOOL_OUTPUT }];
        return { type: 'tool_result', tool_use_id: c.id, content, ...(c.output?.isError ? { is_error: true } : {}) };
      }),
    );
  }
  const p = req.model.params;
  const budget = p.reasoning?.budgetTokens;
  const body: Record<string, unknown> = {
    model: req.model.id,
    max_tokens: p.maxTokens ?? (budget ? budget + DEFAULT_MAX_TOKENS : DEFAULT_MAX_TOKENS),
    messages,
    stream: true,
  };
  if (req.systemPrompt) body.system = req.systemPrompt;
  if (req.tools.length) {
    body.tools = req.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: t.parameters }));
  }
  if (p.temperature !== undefined) body.temperature = p.temperature;
  return { ...body, ...anthropicControls(p, req.tools.length > 0), ...(p.extra ?? {}) };
}

const STOP: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
  /** A long turn with server tools paused; continuing the conversation resumes it. */
  pause_turn: 'pause_turn',
  model_context_window_exceeded: 'length',
};

/**
 * A content block the provider ran itself: server tools (`server_tool_use` and their
 * `web_search_tool_result`, `web_fetch_tool_result`, `code_execution_tool_result`, …), the MCP
 * connector (`mcp_tool_use`, `mcp_tool_result`) and code execution's `container_upload`.
 */
export function isServerToolBlock(type: unknown): boolean {
  return typeof type === 'string' && (type === 'server_tool_use' || type === 'mcp_tool_use' || type === 'container_upload' || (type.endsWith('_tool_result') && type !== 'tool_result'));
}

/** Turns Messages stream events into sink calls; content blocks are keyed by their index. */
export class AnthropicHandler extends BaseHandler {
  private started = false;
  /** The message id of the stream's `message_start` (a proxy may repeat that event). */
  private messageId?: string;
  /** Block index → kind, for routing deltas. */
  private blocks = new Map<number, { type: string; input?: unknown; gotJson?: boolean }>();

  protected missingEnd(): string {
    return 'no message_stop';
  }

  protected handle(ev: Record<string, any>): void {
    if (this.completed) return;
    switch (ev.type) {
      case 'message_start': {
        const id = typeof ev.message?.id === 'string' ? ev.message.id : undefined;
        // LiteLLM-style bridges repeat message_start for the same message: nothing new in it.
        if (this.started && id !== undefined && id === this.messageId) return;
        if (this.started) return this.streamFailed(protocolError(this.ctx, `a second message_start in one stream (message ${id ?? '(no id)'} after ${this.messageId ?? '(no id)'})`, ev));
        this.started = true;
        this.messageId = id;
        const u = ev.message?.usage ?? {};
        this.usage(u);
        return;
      }
      case 'content_block_start': {
        const b = ev.content_block ?? {};
        const i = Number(ev.index);
        this.blocks.set(i, { type: b.type, input: b.input });
        if (b.type === 'text' && b.text) this.acc.text(`b${i}`, b.text);
        else if (b.type === 'thinking') {
          this.acc.openThinking(`b${i}`);
          if (b.thinking) this.acc.thinking(`b${i}`, b.thinking);
          if (b.signature) this.acc.signature(`b${i}`, b.signature);
        } else if (b.type === 'redacted_thinking') this.acc.redactedThinking(`b${i}`, String(b.data ?? ''));
        else if (b.type === 'tool_use') this.acc.toolCall(`b${i}`, { id: b.id, name: b.name });
        else if (isServerToolBlock(b.type)) this.acc.serverTool(`b${i}`, b);
        return;
      }
      case 'content_block_delta': {
        const i = Number(ev.index);
        const d = ev.delta ?? {};
        if (d.type === 'text_delta') this.acc.text(`b${i}`, d.text);
        else if (d.type === 'thinking_delta') this.acc.thinking(`b${i}`, d.thinking);
        else if (d.type === 'signature_delta') this.acc.signature(`b${i}`, d.signature);
        else if (d.type === 'input_json_delta' && this.acc.isServerTool(`b${i}`)) this.acc.serverToolInput(`b${i}`, String(d.partial_json ?? ''));
        else if (d.type === 'input_json_delta') {
          const block = this.blocks.get(i);
          if (block) block.gotJson = true;
          this.acc.toolArgs(`b${i}`, d.partial_json);
        }
        return;
      }
      case 'content_block_stop': {
        const block = this.blocks.get(Number(ev.index));
        if (isServerToolBlock(block?.type)) return this.acc.closeServerTool(`b${ev.index}`);
        // A proxy may put the whole input in content_block_start and send no deltas.
        if (block?.type === 'tool_use' && !block.gotJson && block.input && Object.keys(block.input).length) {
          this.acc.toolArgs(`b${ev.index}`, JSON.stringify(block.input));
        }
        return;
      }
      case 'message_delta': {
        const reason = ev.delta?.stop_reason;
        if (reason === 'refusal') {
          // stop_details: { type: 'refusal', category, explanation } (RefusalStopDetails).
          const d = ev.delta.stop_details;
          const why = [d?.category ? `category ${d.category}` : '', typeof d?.explanation === 'string' ? d.explanation : ''].filter(Boolean).join(' — ');
          this.acc.refusal(refusalError(this.ctx, 'stop reason "refusal"', why, d));
        } else if (reason) {
          this.setStopReason(String(reason), STOP);
        }
        if (ev.usage) this.usage(ev.usage);
        return;
      }
      case 'message_stop':
        if (!this.started) return this.streamFailed(protocolError(this.ctx, 'message_stop without message_start', ev));
        this.completed = true;
        return;
      case 'error':
        return this.streamFailed(streamErrorEvent(this.ctx, ev));
      default:
        // ping and event types added later are ignored.
        return;
    }
  }

  /** Merges usage from message_start and message_delta (the later values win). */
  private usage(u: Record<string, any>): void {
    const prev = this.acc.usage;
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
    const input = num(u.input_tokens) ?? prev?.inputTokens ?? 0;
    const output = num(u.output_tokens) ?? prev?.outputTokens ?? 0;
    const read = num(u.cache_read_input_tokens) ?? prev?.cacheReadTokens;
    const write = num(u.cache_creation_input_tokens) ?? prev?.cacheWriteTokens;
    this.acc.usage = { inputTokens: input, outputTokens: output, ...(read ? { cacheReadTokens: read } : {}), ...(write ? { cacheWriteTokens: write } : {}) };
  }
}

/** The Messages wire API on the `@anthropic-ai/sdk` client. */
const messagesApi: WireApi<Anthropic> = {
  sdk: { defaultBaseUrl: ANTHROPIC_BASE_URL, create: (options) => new Anthropic(options) },
  body: buildAnthropicRequest,
  Handler: AnthropicHandler,
  send: (client, body, signal) => client.messages.create(body as any, { signal }),
  // The stream's `error` event: `{"type": "error", "error": {"type", "message"}}`.
  errorEvent: typedErrorEvent((error) => ({ type: 'error', error })),
};

/** An Anthropic Messages provider. */
export const createAnthropicProvider = (opts: SdkProviderOptions): Provider => createSdkProvider(messagesApi, opts);
