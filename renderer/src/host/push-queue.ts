/**
 * An async-iterable view of a push source (docs/architecture.md#renderer): a cursor queue (an array and a read
 * index, never `shift()`), a `finally` that unsubscribes when the reader leaves, and abort via
 * `AbortSignal`. Items that arrive while the reader is busy are kept in order.
 */

/** Subscribes `listener` to a source; returns the unsubscribe function. */
export type Subscribe<T> = (listener: (item: T) => void) => () => void;

/** Compact the buffer once this many consumed items sit before the cursor. */
const COMPACT_AT = 1024;

/**
 * Wrap a listener-style source as an `AsyncIterable`. The subscription starts when iteration
 * starts and ends when the loop exits, the signal aborts, or `return()` is called.
 */
export function pushIterable<T>(subscribe: Subscribe<T>, signal?: AbortSignal): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      return iterate(subscribe, signal)[Symbol.asyncIterator]();
    },
  };
}

async function* iterate<T>(subscribe: Subscribe<T>, signal?: AbortSignal): AsyncGenerator<T> {
  if (signal?.aborted) return;
  let buf: T[] = [];
  let cursor = 0;
  let wake: (() => void) | null = null;
  let done = false;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const unsubscribe = subscribe((item) => {
    if (done) return;
    buf.push(item);
    notify();
  });
  const onAbort = (): void => {
    done = true;
    notify();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    while (!done) {
      if (cursor < buf.length) {
        const item = buf[cursor];
        buf[cursor++] = undefined as T; // drop the reference; the slot is reclaimed on compaction
        if (cursor >= COMPACT_AT && cursor * 2 >= buf.length) {
          buf = buf.slice(cursor);
          cursor = 0;
        }
        yield item;
        continue;
      }
      if (cursor > 0) {
        buf = [];
        cursor = 0;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    done = true;
    signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}

/** A set of push listeners, with a delivered count for `stream.ack` batching. */
export class PushHub<T> {
  private readonly listeners = new Set<(item: T) => void>();

  /** Deliver one item to every listener; a throwing listener does not stop the others. */
  emit(item: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(item);
      } catch (err) {
        console.error('push listener failed', err);
      }
    }
  }

  readonly subscribe: Subscribe<T> = (listener) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  get size(): number {
    return this.listeners.size;
  }
}
