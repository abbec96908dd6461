/**
 * The idle timeout of one model call, measured below the SDKs: a `fetch` for the `openai` and
 * `@anthropic-ai/sdk` clients whose clock runs while a request waits for its response and while
 * a read of the response body waits for bytes. Every piece of the body that arrives resets it,
 * so keep-alives the SDKs' SSE parsers swallow (`: keep-alive` comments, Anthropic `ping`)
 * count as activity. A long but lively stream never times out; the time the caller spends on
 * what it read is not counted.
 *
 * When the clock runs out the request is aborted (through the guard's own AbortController, so
 * neither the SDK nor the run sees a user cancel) and the waiting read fails with
 * `IdleTimeoutError`; `fired` stays true, and every later request of the call fails at once.
 */

/** The provider sent nothing for `timeoutMs`; the request was aborted. */
export class IdleTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the provider sent nothing for ${formatSeconds(timeoutMs)} s`);
    this.name = 'IdleTimeoutError';
  }
}

/** `300` → `0.3`, `120000` → `120`: milliseconds as seconds, at most three decimals. */
export function formatSeconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

/** The idle clock of one model call. */
export interface IdleGuard {
  /** The fetch to give the SDK client that makes this call. */
  readonly fetch: typeof fetch;
  /** True once the provider was silent for `timeoutMs`. */
  readonly fired: boolean;
  readonly timeoutMs: number;
  /** Stops the clock and aborts whatever of the call is still open. Call when the call ended. */
  dispose(): void;
}

/** A guard for one call: `timeoutMs` of silence ends it. `base` is the real fetch. */
export function idleGuard(timeoutMs: number, base: typeof fetch = globalThis.fetch): IdleGuard {
  const abort = new AbortController();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let fired = false;
  let disposed = false;

  /** `work`, unless nothing settles it for `timeoutMs`: then the call is ended. */
  function watch<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (disposed) return;
        fired = true;
        const err = new IdleTimeoutError(timeoutMs);
        reject(err);
        abort.abort(err);
      }, timeoutMs);
      timers.add(timer);
      const settle = () => {
        clearTimeout(timer);
        timers.delete(timer);
      };
      work.then(
        (v) => {
          settle();
          resolve(v);
        },
        (e: unknown) => {
          settle();
          reject(e);
        },
      );
    });
  }

  const guarded = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    // An SDK retry after the timeout: the call is over.
    if (fired) throw new IdleTimeoutError(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, abort.signal]) : abort.signal;
    const res = await watch(base(input, { ...init, signal }));
    if (!res.body) return res;
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await watch(reader.read());
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    const wrapped = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    // Kept for the SDKs' debug logs and error objects.
    Object.defineProperty(wrapped, 'url', { value: res.url });
    return wrapped;
  };

  return {
    fetch: guarded as typeof fetch,
    get fired() {
      return fired;
    },
    timeoutMs,
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      abort.abort(new Error('the model call ended'));
    },
  };
}
