/**
 * The web host's log of refused requests, rate-limited: anyone who can reach the port can send
 * refused requests as fast as they like, and each one logged would flood the terminal. Of each
 * window of `windowMs`, the first `max` lines are written; the rest are counted and summed up
 * in one line when the window ends (shared/log-window.ts).
 */
import { LogWindow } from '../../shared/log-window';

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
  const limit = new LogWindow(max, windowMs);
  let timer: NodeJS.Timeout | undefined;

  /** Writes the summary of `n` refusals held back, if any; the timer has nothing left to do. */
  const summary = (n: number) => {
    clearTimeout(timer);
    timer = undefined;
    if (n > 0) log(`refused ${n} more request${n === 1 ? '' : 's'} in ${windowMs / 1000} s (only the first ${max} of a window are logged one by one)`);
  };
  const flush = () => summary(limit.takeHeldBack());

  return {
    refused(line) {
      const now = Date.now();
      const { pass, heldBack } = limit.admit(now);
      if (heldBack) summary(heldBack);
      if (pass) {
        log(line);
        return;
      }
      if (!timer) {
        timer = setTimeout(flush, limit.endsIn(now));
        timer.unref();
      }
    },
    close: flush,
  };
}
