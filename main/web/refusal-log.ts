/**
 * The web host's log of refused requests, rate-limited: anyone who can reach the port can send
 * refused requests as fast as they like, and each one logged would flood the terminal. Of each
 * window of `windowMs`, the first `max` lines are written; the rest are counted and summed up
 * in one line when the window ends.
 */

export interface RefusalLogOptions {
  /** Lines written per window before the rest are only counted. Default 20. */
  max?: number;
  /** Window length, ms. Default 10 000. */
  windowMs?: number;
}

export interface RefusalLog {
  /** Log one refusal (or count it, once this window has had `max`). */
  refused(line: string): void;
  /** Write the pending summary, if any, and stop its timer. */
  close(): void;
}

/** A rate-limited refusal log writing to `log`. */
export function createRefusalLog(log: (line: string) => void, o: RefusalLogOptions = {}): RefusalLog {
  const max = o.max ?? 20;
  const windowMs = o.windowMs ?? 10_000;
  let windowStart = -Infinity;
  let written = 0;
  let suppressed = 0;
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (suppressed > 0) log(`refused ${suppressed} more request${suppressed === 1 ? '' : 's'} in ${windowMs / 1000} s (only the first ${max} of a window are logged one by one)`);
    suppressed = 0;
  };

  return {
    refused(line) {
      const now = Date.now();
      if (now - windowStart >= windowMs) {
        flush();
        windowStart = now;
        written = 0;
      }
      if (written < max) {
        written++;
        log(line);
        return;
      }
      suppressed++;
      if (!timer) {
        timer = setTimeout(flush, Math.max(0, windowStart + windowMs - now));
        timer.unref();
      }
    },
    close: flush,
  };
}
