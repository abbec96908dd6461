/**
 * The rate limit of a log that another party can make write (a web client sending refused
 * requests, a peer process sending malformed messages): of each window of `windowMs` ms, opened
 * by the first event after the previous window ended, the first `max` events go through and
 * the rest are held back, only counted. The count is reported once: with the event that opens
 * the next window, or earlier through `takeHeldBack`. Used by the web host's refusal log
 * (main/web/refusal-log.ts), the message gate (shared/protocol/contract/gate.ts) and the
 * renderer's push check (renderer/src/host/checked.ts).
 */
export class LogWindow {
  private start = -Infinity;
  private passed = 0;
  private held = 0;

  /** `max` ≥ 1 events per window of `windowMs` ms. */
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Whether the event at `now` (ms) goes through (`pass`). An event that opens a window also
   * carries `heldBack`, the events held back and not yet reported (0 otherwise).
   */
  admit(now: number): { pass: boolean; heldBack: number } {
    let heldBack = 0;
    if (now - this.start >= this.windowMs) {
      heldBack = this.takeHeldBack();
      this.start = now;
      this.passed = 0;
    }
    if (this.passed < this.max) {
      this.passed++;
      return { pass: true, heldBack };
    }
    this.held++;
    return { pass: false, heldBack };
  }

  /** The events held back and not yet reported; they count as reported from now on. */
  takeHeldBack(): number {
    const n = this.held;
    this.held = 0;
    return n;
  }

  /** Ms from `now` until the current window ends (0 when it has ended). */
  endsIn(now: number): number {
    return Math.max(0, this.start + this.windowMs - now);
  }
}
