/**
 * Takes turns between runs on one MCP server session. MCP does not link a server's request
 * (sampling/createMessage, elicitation/create) to the tool call that caused it, and the answer
 * must come from the right run: its thread, model and user. So while one run has calls in
 * flight on a server, another run's calls to that server wait (calls of one run still run in
 * parallel), and every server request belongs to the run holding the turn.
 */

interface Waiter {
  runId: string;
  grant: () => void;
}

export class RunTurns {
  private holder: string | undefined;
  private active = 0;
  private readonly queue: Waiter[] = [];

  /** The run whose calls are in flight now, if any. */
  get current(): string | undefined {
    return this.holder;
  }

  /**
   * Resolves with a release function (call it once, when the call ends) as soon as run
   * `runId` may call: at once when no other run holds the turn. `onWait(holder)` is called
   * once when it must wait. Rejects with `signal.reason` if `signal` aborts while waiting.
   * The holder's further calls are let in even while other runs wait (its parallel tool
   * calls run together), so a run that keeps overlapping calls keeps the turn until it has
   * none in flight; runs' calls end, so the others get their turn.
   */
  acquire(runId: string, signal: AbortSignal, onWait?: (holder: string) => void): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.holder === undefined || this.holder === runId) {
      this.holder = runId;
      this.active++;
      return Promise.resolve(this.releaser());
    }
    onWait?.(this.holder);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        runId,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      if (this.active > 0) return;
      this.holder = undefined;
      const next = this.queue[0];
      if (!next) return;
      // The next run in line takes the turn with all of its waiting calls.
      this.holder = next.runId;
      for (const w of this.queue.filter((q) => q.runId === next.runId)) {
        this.queue.splice(this.queue.indexOf(w), 1);
        this.active++;
        w.grant();
      }
    };
  }
}
