/**
 * Turns provider failures into `NodeError`s a user can act on: what failed, which provider and
 * model, what to try. Raw details (HTTP status, body, request id) go in `details`.
 */
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import type { NodeError } from '../../shared/protocol/nodes';
import { formatSeconds } from './idle';

/** Who was called: used in every message. */
export interface ErrorContext {
  /** Provider id as configured (`openai`, `anthropic`, `ollama` …). */
  provider: string;
  model: string;
  baseUrl: string;
}

/** Error codes in `NodeError.code` for provider failures. */
export type ProviderErrorCode =
  | 'no_api_key' | 'bad_request' | 'auth' | 'forbidden' | 'not_found' | 'rate_limit' | 'server'
  | 'http' | 'network' | 'timeout' | 'stream_cut' | 'malformed' | 'protocol' | 'stream_error'
  | 'replay' | 'internal' | 'idle_timeout' | 'refusal';

const who = (c: ErrorContext) => `${c.provider} (model ${c.model || '(none)'})`;

function stringify(v: unknown): string {
  try {
    return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}

/** The API's own message from an error body of either SDK (`{error:{message}}` or `{message}`). */
function apiMessage(body: unknown): string | undefined {
  const b = body as { error?: { message?: unknown }; message?: unknown } | undefined;
  const m = b?.error?.message ?? b?.message;
  // Sentences below add their own full stop.
  return typeof m === 'string' && m.trim() ? m.trim().replace(/\.+$/, '') : undefined;
}

/** Seconds to wait from `retry-after-ms` / `retry-after` (seconds or an HTTP date). */
export function retryAfterSeconds(headers: { get(name: string): string | null } | undefined): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms)) return Math.ceil(ms / 1000);
  const ra = headers.get('retry-after');
  if (!ra) return undefined;
  const s = Number(ra);
  if (Number.isFinite(s)) return Math.ceil(s);
  const date = Date.parse(ra);
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - Date.now()) / 1000)) : undefined;
}

/** A failure with an HTTP status: the message depends on the status. */
export function httpError(c: ErrorContext, status: number, body: unknown, headers?: { get(name: string): string | null }): NodeError {
  const msg = apiMessage(body);
  const said = msg ? `: ${msg}` : '';
  const retry = retryAfterSeconds(headers);
  const details = stringify({ status, body, requestId: headers?.get?.('x-request-id') ?? headers?.get?.('request-id') ?? undefined, retryAfterSeconds: retry });
  let code: ProviderErrorCode = 'http';
  let message: string;
  if (status === 400 || status === 422) {
    code = 'bad_request';
    message = `${who(c)} rejected the request (HTTP ${status})${said}. Check the model parameters, tools and messages.`;
  } else if (status === 401) {
    code = 'auth';
    message = `${c.provider} did not accept the API key (HTTP 401)${said}. Check the key in Settings or the environment variable it comes from.`;
  } else if (status === 403) {
    code = 'forbidden';
    message = `${who(c)} denied access (HTTP 403)${said}. Check that your key may use this model.`;
  } else if (status === 404) {
    code = 'not_found';
    message = `${c.provider} found no model "${c.model}" or no endpoint at ${c.baseUrl} (HTTP 404)${said}. Check the model id and the provider's base URL.`;
  } else if (status === 429) {
    code = 'rate_limit';
    const wait = retry !== undefined ? ` Retry after ${retry} s.` : ' Wait a moment and try again.';
    message = `${who(c)} hit a rate limit or quota (HTTP 429)${said}.${wait}`;
  } else if (status >= 500) {
    code = 'server';
    message = `${who(c)} answered with a server error (HTTP ${status})${said}. The service may be overloaded or down; try again in a moment.`;
  } else {
    message = `${who(c)} request failed (HTTP ${status})${said}.`;
  }
  return { message, code, details };
}

function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  UND_ERR_SOCKET: 'connection closed by the server',
};

/** The stream ended before its end marker; `missing` names what did not arrive. */
export function streamCutError(c: ErrorContext, missing: string, details?: string): NodeError {
  return {
    message: `The ${who(c)} stream ended before it finished (${missing}); the partial reply is kept. Try again.`,
    code: 'stream_cut',
    ...(details ? { details } : {}),
  };
}

/**
 * Nothing arrived from the provider for `timeoutMs` (its `idleTimeoutMs`): the call was ended
 * and the partial reply is kept. Not a cut connection and not a cancel.
 */
export function idleTimeoutError(c: ErrorContext, timeoutMs: number): NodeError {
  return {
    message: `${who(c)} stalled: the provider sent nothing for ${formatSeconds(timeoutMs)} s, so the call was ended; the partial reply is kept. Try again; if this model is often silent for longer, raise idleTimeoutMs of provider "${c.provider}" in settings/providers.json.`,
    code: 'idle_timeout',
    details: stringify({ idleTimeoutMs: timeoutMs }),
  };
}

/**
 * Node's fetch (undici) gives up on its own after 300 s without headers or body bytes
 * (`headersTimeout`, `bodyTimeout`): the same silence as an idle timeout, not a lost connection.
 */
const UNDICI_IDLE: Record<string, number> = { UND_ERR_HEADERS_TIMEOUT: 300_000, UND_ERR_BODY_TIMEOUT: 300_000 };

/** The timeout of Node's fetch somewhere in the `cause` chain of `err`, in ms. */
function undiciIdleMs(err: unknown): number | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNDICI_IDLE[code]) return UNDICI_IDLE[code];
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The stream carried something the wire format does not allow. */
export function protocolError(c: ErrorContext, what: string, details?: unknown): NodeError {
  return {
    message: `${who(c)} sent an invalid stream: ${what}. The partial reply is kept; try again, and check the base URL if it is not the provider's own.`,
    code: 'protocol',
    ...(details !== undefined ? { details: stringify(details) } : {}),
  };
}

/**
 * The reply ended with a finish / stop reason this provider does not know: an error, so that
 * nothing acts on a reply whose ending is unclear (tool calls are not executed); the partial
 * reply is kept and the raw reason is shown.
 */
export function unknownStopReason(c: ErrorContext, reason: string): NodeError {
  return {
    message: `${who(c)} ended the reply with an unknown finish reason "${reason}". The partial reply is kept; an OpenAI-compatible server should report stop, length or tool_calls.`,
    code: 'unknown_finish_reason',
    details: reason,
  };
}

/**
 * The provider refused or filtered the reply (Anthropic `stop_reason: "refusal"`, OpenAI
 * `finish_reason: "content_filter"`, a Responses refusal). `why` is the provider's own words
 * (Anthropic `stop_details.explanation`, OpenAI's refusal text), kept in the message; `details`
 * the raw stop details.
 */
export function refusalError(c: ErrorContext, reason: string, why?: string, details?: unknown): NodeError {
  const explanation = why?.trim() ? `: ${why.trim().replace(/\.+$/, '')}` : '';
  return {
    message: `${who(c)} refused to answer (${reason})${explanation}. The partial reply is kept.`,
    code: 'refusal',
    ...(details !== undefined && details !== null ? { details: stringify(details) } : {}),
  };
}

/** An error event inside the stream (`error`, `response.failed`, a chunk with `error`). */
export function streamErrorEvent(c: ErrorContext, body: unknown): NodeError {
  const msg = apiMessage(body) ?? 'no message';
  const b = body as { error?: { type?: unknown; code?: unknown }; type?: unknown; code?: unknown } | undefined;
  const kind = [b?.error?.type, b?.error?.code, b?.code].find((x) => typeof x === 'string' && x !== 'error');
  const overloaded = /overload|rate|capacity|server/i.test(String(kind ?? '') + msg);
  const hint = overloaded ? ' The service is busy; try again in a moment.' : ' Try again; if it repeats, check the request.';
  return {
    message: `${who(c)} reported an error mid-stream${kind ? ` (${String(kind)})` : ''}: ${msg}. The partial reply is kept.${hint}`,
    code: 'stream_error',
    details: stringify(body),
  };
}

/**
 * The error body of an error event inside the stream when an SDK threw on one (an `APIError`
 * with no HTTP status that is not a connection error); undefined for any other failure.
 */
export function sdkStreamErrorBody(err: unknown): unknown {
  if (!(err instanceof OpenAI.APIError || err instanceof Anthropic.APIError)) return undefined;
  if (err.status !== undefined || err instanceof OpenAI.APIConnectionError || err instanceof Anthropic.APIConnectionError) return undefined;
  return err.error || undefined;
}

/**
 * Describes an error thrown by an SDK call or while iterating its stream. `inStream` is true
 * once events were being read: a lost connection then means the stream was cut.
 */
export function describeError(err: unknown, c: ErrorContext, inStream: boolean): NodeError {
  const undiciIdle = undiciIdleMs(err);
  if (undiciIdle) return idleTimeoutError(c, undiciIdle);
  if (err instanceof OpenAI.APIConnectionTimeoutError || err instanceof Anthropic.APIConnectionTimeoutError) {
    return { message: `${who(c)} did not answer in time at ${c.baseUrl}. Check your network and try again.`, code: 'timeout', details: stringify({ cause: causeCode(err) }) };
  }
  if (err instanceof OpenAI.APIConnectionError || err instanceof Anthropic.APIConnectionError) {
    const code = causeCode((err as Error).cause);
    const reason = (code && NETWORK_REASONS[code]) ?? ((err as Error).cause as Error | undefined)?.message ?? 'network error';
    return {
      message: `Could not reach ${c.provider} at ${c.baseUrl}: ${reason}. Check the base URL, your network, and that the server is running.`,
      code: 'network',
      details: stringify({ cause: code, error: String((err as Error).cause ?? err) }),
    };
  }
  if (err instanceof OpenAI.APIError || err instanceof Anthropic.APIError) {
    const e = err as { status?: number; error?: unknown; headers?: { get(n: string): string | null } };
    if (typeof e.status === 'number') return httpError(c, e.status, e.error, e.headers);
    return streamErrorEvent(c, e.error);
  }
  if (err instanceof SyntaxError) {
    return {
      message: `${who(c)} sent malformed stream data (an event that is not valid JSON). The partial reply is kept; try again, and check the base URL if it is not the provider's own.`,
      code: 'malformed',
      details: err.message,
    };
  }
  const code = causeCode(err);
  if (inStream) {
    return streamCutError(c, `connection lost: ${(code && NETWORK_REASONS[code]) ?? (err as Error)?.message ?? 'unknown'}`, stringify({ cause: code, error: String(err) }));
  }
  return { message: `${who(c)} call failed: ${(err as Error)?.message ?? String(err)}.`, code: 'internal', details: (err as Error)?.stack ?? String(err) };
}
