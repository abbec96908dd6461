/**
 * What the three wire providers share around their official SDK client (`openai`,
 * `@anthropic-ai/sdk`): the connection settings, one client per call built with that call's idle
 * fetch (idle.ts) and Stepwise's client defaults, and the `Provider` that records the request,
 * streams through `runLive` (live.ts) and maps every failure to data. A wire file
 * (openai-chat.ts, openai-responses.ts, anthropic.ts) supplies only what its API defines, as a
 * `WireApi`: the request body, the raw-event handler class, the SDK method that streams, and the event
 * that carries an in-stream error. API keys are resolved before this, in registry.ts.
 */
import type { LlmRequest, Provider } from './types';
import { runLive, type StreamHandlerClass } from './live';
import { sdkStreamErrorBody, type ErrorContext } from './errors';

/** Connection settings of a provider on an SDK client (registry.ts builds them from a ProviderConfig). */
export interface SdkProviderOptions {
  /** Provider id, used in error messages. */
  id: string;
  /** The resolved key (a literal, never a `$ENV` reference). */
  apiKey: string;
  /** Default: the API's own endpoint (`SdkClient.defaultBaseUrl`). */
  baseUrl?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** SDK retries on 408/429/5xx and connection errors. Default 0: errors surface at once. */
  retries?: number;
  /** Time in ms to wait for the response headers (SDK default 10 min); not a limit on the stream. */
  timeoutMs?: number;
  /** Idle timeout of each call in ms (see ProviderConfig.idleTimeoutMs). Default 120 s. */
  idleTimeoutMs?: number;
}

/** The client options both SDKs take, as Stepwise sets them for one call. */
export interface SdkClientOptions {
  apiKey: string;
  baseURL: string;
  defaultHeaders?: Record<string, string>;
  maxRetries: number;
  logLevel: 'off';
  /** Ms to wait for response headers; absent: the SDK's default. */
  timeout?: number;
  /** The idle clock of the one call this client makes. */
  fetch: typeof globalThis.fetch;
}

/** Client options for one call to `baseUrl` (no retries unless configured, no SDK logging). */
export function sdkClientOptions(opts: SdkProviderOptions, baseUrl: string, fetch: typeof globalThis.fetch): SdkClientOptions {
  return {
    apiKey: opts.apiKey,
    baseURL: baseUrl,
    defaultHeaders: opts.headers,
    maxRetries: opts.retries ?? 0,
    // Failures come back as data; the SDK's own console logging would only duplicate them.
    logLevel: 'off',
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
    fetch,
  };
}

/** An SDK client as the wire APIs on it use it (both OpenAI APIs share one). */
export interface SdkClient<Client> {
  /** The API's own endpoint, used when the configuration gives no base URL. */
  defaultBaseUrl: string;
  /** Builds the client (`new OpenAI(options)`, `new Anthropic(options)`). */
  create(options: SdkClientOptions): Client;
}

/** What one wire API defines; `Client` is its SDK client class. */
export interface WireApi<Client> {
  /** The SDK client it is sent with. */
  sdk: SdkClient<Client>;
  /** The exact request body for `req`; `baseUrl` is the endpoint it is sent to. */
  body(req: LlmRequest, baseUrl: string): Record<string, unknown>;
  /** The raw-event handler of this API (the same one replays use). */
  Handler: StreamHandlerClass;
  /** Sends `body` with streaming on, passing `signal`; resolves to the SDK's event stream. */
  send(client: Client, body: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  /**
   * The raw event of this API that carries `error`, the body of an error event the SDK threw
   * on inside the stream: it is recorded and handled like any event, so a replay reproduces it.
   */
  errorEvent(error: unknown): unknown;
}

/**
 * `WireApi.errorEvent` of an API whose stream error event is `{ type: 'error', … }`: an error
 * body that already is one is kept, any other is made one by `wrap`.
 */
export function typedErrorEvent(wrap: (error: Record<string, unknown>) => Record<string, unknown>): (error: unknown) => unknown {
  return (error) => {
    const e = error as Record<string, unknown>;
    return e.type === 'error' ? e : wrap(e);
  };
}

/** A provider that speaks `api` with the settings `opts`. Its `stream` never rejects. */
export function createSdkProvider<Client>(api: WireApi<Client>, opts: SdkProviderOptions): Provider {
  const baseUrl = opts.baseUrl ?? api.sdk.defaultBaseUrl;
  return {
    stream(req, sink) {
      const ctx: ErrorContext = { provider: opts.id, model: req.model.id, baseUrl };
      const body = api.body(req, baseUrl);
      return runLive({
        ctx,
        body,
        sink,
        signal: req.signal,
        handler: new api.Handler(sink, ctx),
        idleTimeoutMs: opts.idleTimeoutMs,
        // One client per call: `fetch` is that call's idle clock.
        open: async (fetch) => (await api.send(api.sdk.create(sdkClientOptions(opts, baseUrl, fetch)), body, req.signal)) as AsyncIterable<unknown>,
        errorEvent: (err) => {
          const error = sdkStreamErrorBody(err);
          return error === undefined ? undefined : api.errorEvent(error);
        },
      });
    },
  };
}
