/** Schedules `cb` before the next paint (requestAnimationFrame), or after ~16 ms where there is none. */
export type FrameScheduler = (cb: () => void) => void;

/** The browser's frame scheduler, with a timer fallback (background tabs, tests without DOM). */
export const nextFrame: FrameScheduler = (cb) => {
  // Typed through globalThis so this module also compiles for the Node-side tests.
  const g = globalThis as { requestAnimationFrame?: (f: () => void) => number; document?: { hidden?: boolean } };
  if (typeof g.requestAnimationFrame === 'function' && g.document && !g.document.hidden) {
    g.requestAnimationFrame(() => cb());
  } else {
    setTimeout(cb, 16);
  }
};

/**
 * Counts processed pushes and reports them at most once per frame (`stream.ack`, docs/architecture.md#backpressure:
 * the host's per-client queue drains only when the client acknowledges).
 */
export class AckBatcher {
  private pending = 0;
  private scheduled = false;
  constructor(
    private readonly send: (count: number) => void,
    private readonly schedule: FrameScheduler = nextFrame,
  ) {}

  /** One push was processed. */
  processed(n = 1): void {
    this.pending += n;
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Send what is counted now. */
  flush(): void {
    this.scheduled = false;
    if (this.pending === 0) return;
    const count = this.pending;
    this.pending = 0;
    this.send(count);
  }

  /** Forget the count (the connection it belongs to is gone). */
  reset(): void {
    this.pending = 0;
  }
}
