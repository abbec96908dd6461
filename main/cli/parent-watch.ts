/**
 * The CLI process under bin/stepwise.mjs stops when that wrapper is gone. The wrapper passes
 * signals on, but `kill -9` (a CI job's timeout, an OOM kill) ends it with no chance to: the
 * CLI would keep running unowned, with its runs and runner processes. The wrapper names its pid
 * in $STEPWISE_WRAPPER_PID; while that is this process's parent nothing happens, and once the
 * parent changes (the wrapper died; the CLI was re-parented) this process sends itself SIGTERM,
 * so it stops exactly as on a SIGTERM (each command cancels its runs and exits). Polling the
 * parent pid works the same for the built bundle and under tsx (one process either way), where
 * an IPC channel would add a channel every child of the CLI could inherit.
 */

/** How often the parent is checked (ms). */
export const PARENT_POLL_MS = 500;

/**
 * Watches for the wrapper named by `wrapperPid` (a decimal pid, e.g. $STEPWISE_WRAPPER_PID) to
 * go; no-op when it is unset or not this process's parent now. `onGone` defaults to SIGTERM to
 * this process. Returns a stop function. The timer does not keep the process alive.
 */
export function watchWrapper(wrapperPid: string | undefined, onGone: () => void = () => process.kill(process.pid, 'SIGTERM')): () => void {
  const pid = Number(wrapperPid);
  if (!wrapperPid || !Number.isInteger(pid) || pid <= 1 || process.ppid !== pid) return () => {};
  const timer = setInterval(() => {
    if (process.ppid === pid) return;
    clearInterval(timer);
    onGone();
  }, PARENT_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
