/**
 * Stop signals for long-running CLI commands (`serve`, `run`, `eval`). `kill -TERM -<pgid>`
 * (a service manager, a CI job ending, `kill` on a process group) reaches both
 * bin/stepwise.mjs and the CLI under it, and the wrapper passes SIGTERM and SIGHUP on: the CLI
 * sees one stop twice within milliseconds. Counted as two, the second means "stop at once" and
 * the command exits before its last save. So a SIGTERM or SIGHUP that follows any stop signal
 * within {@link SAME_STOP_MS} is the same stop and is not counted; every Ctrl-C (SIGINT) counts,
 * since the wrapper never passes SIGINT on (a terminal sends it to the whole group once).
 */

/** How close (ms) a repeated SIGTERM/SIGHUP must follow a stop signal to be the same stop. */
export const SAME_STOP_MS = 1000;

/** The signals a long-running command stops on. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Calls `onStop(signal, count)` for each distinct stop: `count` is 1 for the first, 2 for the
 * next (a request to stop at once), and so on. `now` is injectable for tests (ms). Returns a
 * function that removes the listeners.
 */
export function onStopSignals(onStop: (signal: NodeJS.Signals, count: number) => void, now: () => number = Date.now): () => void {
  let count = 0;
  let last = -Infinity;
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      const t = now();
      const repeat = signal !== 'SIGINT' && t - last < SAME_STOP_MS;
      last = t;
      if (repeat) return;
      onStop(signal, ++count);
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}
