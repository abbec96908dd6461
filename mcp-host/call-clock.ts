/**
 * A tool call's timeout as Stepwise means it: `timeoutMs` without a result or progress. Each
 * progress notification starts the wait again, and while a server request of the call waits
 * on a model or a person (sampling, an elicitation form) the clock stands still, so time spent
 * filling in a form never times the call out.
 */
export class CallClock {
  private timer: NodeJS.Timeout | undefined;
  private holds = 0;
  private done = false;

  /** `onTimeout` runs once, `timeoutMs` after the last start, touch or release with nothing held. */
  constructor(
    private readonly timeoutMs: number,
    private readonly onTimeout: () => void,
  ) {}

  /** Starts (or restarts) the wait. */
  touch(): void {
    if (this.done) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.holds > 0) return;
    this.timer = setTimeout(() => {
      this.done = true;
      this.onTimeout();
    }, this.timeoutMs);
  }

  /** Stops the clock until the returned function is called (calls nest). */
  hold(): () => void {
    this.holds++;
    clearTimeout(this.timer);
    this.timer = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0) this.touch();
    };
  }

  stop(): void {
    this.done = true;
    clearTimeout(this.timer);
  }
}
