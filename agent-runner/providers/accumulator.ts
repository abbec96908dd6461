/**
 * Assembles one streamed LLM call: content parts (text, thinking), tool calls with their raw
 * argument text, usage and stop reason, forwarding every delta to the sink as it arrives.
 * Every wire handler (OpenAI Chat, OpenAI Responses, Anthropic) feeds one of these, so the
 * live path and replay produce the same sink calls and the same result.
 */
import type { AssistantPart, ServerToolPart, TextPart, ThinkingPart, ToolCall } from '../../shared/thread/messages';
import type { NodeError, Usage } from '../../shared/protocol/nodes';
import type { LlmCallResult, StopReason, StreamSink } from './types';

interface PendingToolCall {
  id?: string;
  name?: string;
  raw: string;
  /** Index in the response, set once the call is announced to the sink. */
  index?: number;
  /** Argument text that arrived before the id and name were known. */
  buffered: string;
  /** A custom (free-form) tool call: the text is its input, never parsed. */
  custom?: boolean;
}

/** One raw-event handler: feed recorded or live events, then ask for the result. */
export interface StreamHandler {
  /** Processes one raw stream event (already JSON-parsed). Never throws. */
  event(ev: unknown): void;
  /** True once the stream reported a terminal error; later events are ignored. */
  readonly failed: boolean;
  /** True once the stream's end marker arrived (finish_reason, message_stop, response.completed). */
  readonly ended: boolean;
  /** The stream ended: the result, or a "stream cut" error when it ended early. */
  finish(): LlmCallResult;
  /** The call failed outside the stream (HTTP, network): the partial output is kept. */
  fail(error: NodeError): LlmCallResult;
  /** The call was aborted: the partial output is kept, `cancelled: true`. */
  cancel(): LlmCallResult;
}

/**
 * Collects deltas keyed by the wire API's own block keys and reports them to the sink with
 * normalised indexes: a content part's index in `content`, a tool call's order in the response.
 */
export class CallAccumulator {
  readonly content: AssistantPart[] = [];
  private partByKey = new Map<string, number>();
  /** Input JSON text streamed so far per provider-run tool block key. */
  private serverInput = new Map<string, string>();
  /** A refusal: the error is kept and the stop reason stays `content_filter`. */
  private refused = false;
  private calls: PendingToolCall[] = [];
  private callByKey = new Map<string, PendingToolCall>();
  private announced = 0;
  usage?: Usage;
  stopReason?: StopReason;
  error?: NodeError;

  constructor(private readonly sink: StreamSink) {}

  private part(key: string, type: 'text' | 'thinking'): number {
    const found = this.partByKey.get(key);
    if (found !== undefined && this.content[found]?.type === type) return found;
    this.content.push(type === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' });
    const index = this.content.length - 1;
    this.partByKey.set(key, index);
    return index;
  }

  /** Appends text to the part identified by `key` (a new part when the key is new). */
  text(key: string, delta: string): void {
    if (!delta) return;
    const i = this.part(key, 'text');
    (this.content[i] as TextPart).text += delta;
    this.sink.text(delta, i);
  }

  /** Appends thinking text to the part identified by `key`. */
  thinking(key: string, delta: string): void {
    if (!delta) return;
    const i = this.part(key, 'thinking');
    (this.content[i] as ThinkingPart).thinking += delta;
    this.sink.thinking(delta, i);
  }

  /** Opens an empty thinking part for `key` (Anthropic announces blocks before their deltas). */
  openThinking(key: string): void {
    this.part(key, 'thinking');
  }

  /** Appends to the signature of the thinking part `key` (Anthropic signature_delta). */
  signature(key: string, sig: string): void {
    const i = this.part(key, 'thinking');
    const p = this.content[i] as ThinkingPart;
    p.signature = (p.signature ?? '') + sig;
  }

  /** A redacted thinking block: opaque data kept for the next turn, nothing streamed. */
  redactedThinking(key: string, data: string): void {
    const i = this.part(key, 'thinking');
    const p = this.content[i] as ThinkingPart;
    p.redacted = true;
    p.data = data;
  }

  /**
   * A provider-run tool block (Anthropic `server_tool_use`, `*_tool_result`, `mcp_tool_use` …),
   * kept verbatim as a `server_tool` part in content order. Never a client tool call.
   */
  serverTool(key: string, block: ServerToolPart['block']): void {
    this.content.push({ type: 'server_tool', block: { ...block } });
    this.partByKey.set(key, this.content.length - 1);
  }

  /** Appends streamed input JSON of the provider-run tool block `key` (applied by `closeServerTool`). */
  serverToolInput(key: string, delta: string): void {
    this.serverInput.set(key, (this.serverInput.get(key) ?? '') + delta);
  }

  /**
   * The block `key` ended: its streamed input, when any arrived and parses, becomes the block's
   * `input`. Input that does not parse is kept as text in `input` (the provider will say so if sent back).
   */
  closeServerTool(key: string): void {
    const raw = this.serverInput.get(key);
    const i = this.partByKey.get(key);
    if (raw === undefined || i === undefined || this.content[i]?.type !== 'server_tool') return;
    const part = this.content[i] as ServerToolPart;
    let input: unknown = raw;
    try {
      input = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {}
    part.block = { ...part.block, input };
    this.serverInput.delete(key);
  }

  /** Whether `key` names a provider-run tool block. */
  isServerTool(key: string): boolean {
    const i = this.partByKey.get(key);
    return i !== undefined && this.content[i]?.type === 'server_tool';
  }

  /**
   * The provider refused (Anthropic `stop_reason: refusal`, OpenAI `content_filter`): the call
   * ends with `error` (the provider's explanation) and stop reason `content_filter`, partial output kept.
   */
  refusal(error: NodeError): void {
    this.refused = true;
    this.stopReason = 'content_filter';
    this.error = error;
  }

  /** Whether a tool call with this key was seen. */
  hasToolCall(key: string): boolean {
    return this.callByKey.has(key);
  }

  /** The id tool call `key` got so far, if any. */
  toolCallId(key: string): string | undefined {
    return this.callByKey.get(key)?.id;
  }

  /** Sets what is known of tool call `key`; announces it once both id and name are known. */
  toolCall(key: string, info: { id?: string; name?: string; custom?: boolean }): void {
    let call = this.callByKey.get(key);
    if (!call) {
      call = { raw: '', buffered: '' };
      this.calls.push(call);
      this.callByKey.set(key, call);
    }
    if (info.custom) call.custom = true;
    if (info.id && !call.id) call.id = info.id;
    if (info.name && !call.name) call.name = info.name;
    this.announce(call);
  }

  private announce(call: PendingToolCall): void {
    if (call.index !== undefined || !call.id || !call.name) return;
    call.index = this.announced++;
    this.sink.toolCallStart(call.index, { id: call.id, name: call.name });
    if (call.buffered) {
      this.sink.toolArgs(call.index, call.buffered);
      call.buffered = '';
    }
  }

  /** Appends argument text to tool call `key`. */
  toolArgs(key: string, delta: string): void {
    if (!delta) return;
    if (!this.callByKey.has(key)) this.toolCall(key, {});
    const call = this.callByKey.get(key)!;
    call.raw += delta;
    if (call.index === undefined) call.buffered += delta;
    else this.sink.toolArgs(call.index, delta);
  }

  /** The argument text received so far for tool call `key`. */
  toolArgsSoFar(key: string): string {
    return this.callByKey.get(key)?.raw ?? '';
  }

  /** Reconciles a call's complete argument text (a `done` event): sends only what is missing. */
  completeToolArgs(key: string, full: string): void {
    const sofar = this.toolArgsSoFar(key);
    if (full.length > sofar.length && full.startsWith(sofar)) this.toolArgs(key, full.slice(sofar.length));
  }

  /** Number of tool calls seen so far. */
  get toolCallCount(): number {
    return this.calls.length;
  }

  /** The tool calls as the thread stores them; unparsable argument text is kept in `rawArguments`. */
  toolCalls(): ToolCall[] {
    return this.calls.map((c, i) => {
      // A call that never got an id or a name (a broken stream) still keeps what arrived.
      if (c.index === undefined) {
        c.id ??= `call_${i}`;
        c.name ??= '';
      }
      const call: ToolCall = { id: c.id!, name: c.name!, arguments: {} };
      if (c.custom) return { ...call, rawArguments: c.raw, custom: true };
      const parsed = parseArguments(c.raw);
      if (parsed) call.arguments = parsed;
      else call.rawArguments = c.raw;
      return call;
    });
  }

  /** The call's result: `stopReason` is `error` when an error was set (`content_filter` for a refusal). */
  result(extra?: { cancelled?: boolean }): LlmCallResult {
    const r: LlmCallResult = {
      content: this.content.filter(keepPart),
      toolCalls: this.toolCalls(),
      stopReason: extra?.cancelled ? 'cancelled' : this.error && !this.refused ? 'error' : (this.stopReason ?? 'stop'),
    };
    if (this.usage) r.usage = this.usage;
    if (this.error && !extra?.cancelled) r.error = this.error;
    if (extra?.cancelled) r.cancelled = true;
    return r;
  }
}

/** Empty text and thinking parts (announced, never filled) are dropped; everything else is kept. */
function keepPart(p: AssistantPart): boolean {
  if (p.type === 'text') return p.text.length > 0;
  if (p.type === 'thinking') return p.thinking.length > 0 || !!p.redacted || !!p.signature;
  return true;
}

/** Parses tool-call argument text: `{}` for empty text, undefined when it is not a JSON object. */
export function parseArguments(raw: string): Record<string, unknown> | undefined {
  if (raw.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
