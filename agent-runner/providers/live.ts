/**
 * The shared shape of every wire provider: a raw-event handler (fed by the live stream or by a
 * recording) and the live driver that sends the request, records it and every raw event, and
 * turns every failure into data. `stream` never rejects. A call that hears nothing from the
 * provider for its idle timeout ends as an error (idle.ts), its partial reply kept.
 */
import type { NodeError } from '../../shared/protocol/nodes';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../shared/protocol/runner';
import type { LlmCallResult, StreamSink } from './types';
import { CallAccumulator, type StreamHandler } from './accumulator';
import { describeError, idleTimeoutError, protocolError, streamCutError, unknownStopReason, type ErrorContext } from './errors';
import { idleGuard } from './idle';

export type { StreamHandler } from './accumulator';

/** A raw-event handler class (one instance per call, live or replayed). */
export type StreamHandlerClass = new (sink: StreamSink, ctx: ErrorContext) => StreamHandler;

/**
 * Base of the three wire handlers. Subclasses implement `handle` for one parsed event and set
 * `completed` when the stream's end marker arrived; `finish` reports a cut stream otherwise.
 */
export abstract class BaseHandler implements StreamHandler {
  protected readonly acc: CallAccumulator;
  /** The end marker (finish_reason, message_stop, response.completed) arrived. */
  protected completed = false;
  private _failed = false;

  constructor(sink: StreamSink, protected readonly ctx: ErrorContext) {
    this.acc = new CallAccumulator(sink);
  }

  get failed(): boolean {
    return this._failed;
  }

  get ended(): boolean {
    return this.completed;
  }

  /** Handles one parsed event; may call `streamFailed`. */
  protected abstract handle(ev: Record<string, unknown>): void;
  /** What did not arrive when the stream ended early, e.g. "no message_stop". */
  protected abstract missingEnd(): string;

  /**
   * Sets the call's stop reason from the API's `reason`, named in Stepwise's terms by `known`.
   * An unknown reason is kept as it is, and the call gets an error saying so (unless it has one).
   */
  protected setStopReason(reason: string, known: Record<string, string>): void {
    this.acc.stopReason = known[reason] ?? reason;
    if (!known[reason] && !this.acc.error) this.acc.error = unknownStopReason(this.ctx, reason);
  }

  /** A terminal error reported inside the stream: later events are ignored. */
  protected streamFailed(error: NodeError): void {
    this.acc.error ??= error;
    this._failed = true;
  }

  event(ev: unknown): void {
    if (this._failed) return;
    if (!ev || typeof ev !== 'object') {
      this.streamFailed(protocolError(this.ctx, 'an event that is not a JSON object', ev));
      return;
    }
    try {
      this.handle(ev as Record<string, unknown>);
    } catch (err) {
      this.streamFailed(protocolError(this.ctx, `an event of an unexpected shape (${(err as Error).message})`, ev));
    }
  }

  finish(): LlmCallResult {
    if (!this.acc.error && !this.completed) this.acc.error = streamCutError(this.ctx, this.missingEnd());
    return this.acc.result();
  }

  fail(error: NodeError): LlmCallResult {
    this.acc.error ??= error;
    return this.acc.result();
  }

  cancel(): LlmCallResult {
    return this.acc.result({ cancelled: true });
  }
}

export interface LiveCall {
  ctx: ErrorContext;
  /** The exact request body, recorded before sending. */
  body: unknown;
  sink: StreamSink;
  signal: AbortSignal;
  handler: StreamHandler;
  /**
   * Sends the request (passing `signal`) through an SDK client built with `fetch` (the idle
   * clock of this call) and returns the SDK's event stream.
   */
  open: (fetch: typeof globalThis.fetch) => Promise<AsyncIterable<unknown>>;
  /** Idle timeout of the call, ms. Default `DEFAULT_IDLE_TIMEOUT_MS`. */
  idleTimeoutMs?: number;
  /**
   * When the SDK threw because of an error event inside the stream, the raw event to record
   * and feed to the handler (so a replay reproduces it); undefined for other errors.
   */
  errorEvent?: (err: unknown) => unknown;
}

/**
 * Runs one live call: records the request and each raw event, never rejects. A user cancel
 * (`signal`) wins over an idle timeout; a timeout after the stream's end marker (a server that
 * keeps the response open) still completes the call.
 */
export async function runLive(call: LiveCall): Promise<LlmCallResult> {
  const { sink, signal, handler } = call;
  const idle = idleGuard(call.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  const stalled = () => (handler.ended ? handler.finish() : handler.fail(idleTimeoutError(call.ctx, idle.timeoutMs)));
  let inStream = false;
  try {
    sink.request(call.body);
    if (signal.aborted) return handler.cancel();
    const stream = await call.open(idle.fetch);
    inStream = true;
    for await (const ev of stream) {
      if (signal.aborted) break;
      sink.event(ev);
      handler.event(ev);
      if (handler.failed) break;
    }
    if (signal.aborted) return handler.cancel();
    if (idle.fired) return stalled();
    return handler.finish();
  } catch (err) {
    if (signal.aborted) return handler.cancel();
    if (idle.fired) return stalled();
    const ev = call.errorEvent?.(err);
    if (ev !== undefined) {
      try {
        sink.event(ev);
      } catch {}
      handler.event(ev);
      if (handler.failed) return handler.finish();
    }
    return handler.fail(describeError(err, call.ctx, inStream));
  } finally {
    idle.dispose();
  }
}

/** A provider whose every call ends at once with `error` (missing key, bad configuration). */
export function failingProvider(error: NodeError): { stream(): Promise<LlmCallResult> } {
  return {
    stream: async () => ({ content: [], toolCalls: [], stopReason: 'error', error }),
  };
}
