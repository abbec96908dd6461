/**
 * Makes the playground's expensive parts one at a time: a message card replacing its row's
 * placeholder, a CodeMirror view replacing its static text (features/playground/MessageRow.tsx,
 * editor-mount.tsx). The queue runs one request per task, after the next frame is drawn,
 * highest priority first, then first come first served; so opening or scrolling a long thread
 * never mounts a dozen cards or editors in one long task. A part that leaves the page before
 * its turn withdraws its request.
 */

export interface WakeQueueOptions {
  /** Schedules `run` for after the next frame. Default: requestAnimationFrame, then a task. */
  schedule?: (run: () => void) => void;
}

const afterFrame = (run: () => void) => requestAnimationFrame(() => setTimeout(run, 0));

/**
 * Priorities: warming the editors' code (it makes everything after it cheaper), the
 * playground's next section, what the person sees first, then its editors, then what is just
 * out of view.
 */
export const WAKE_PRIORITY = { warmUp: 5, section: 4, visibleRow: 3, editor: 2, nearbyRow: 1 } as const;

/** A queue of wake requests by priority, first in first out within one, one run per scheduled turn. */
export class WakeQueue {
  /** Requests by priority, highest first. */
  private readonly levels = new Map<number, Map<string, () => void>>();
  private scheduled = false;
  private readonly schedule: (run: () => void) => void;

  constructor(o: WakeQueueOptions = {}) {
    this.schedule = o.schedule ?? afterFrame;
  }

  /**
   * Ask to run `wake` for `key` at `priority` (higher runs first); a newer request for the same
   * key replaces the older. Returns a function that withdraws the request.
   */
  add(key: string, wake: () => void, priority = 0): () => void {
    this.remove(key);
    let level = this.levels.get(priority);
    if (!level) {
      level = new Map();
      this.levels.set(priority, level);
    }
    level.set(key, wake);
    this.kick();
    return () => {
      if (level.get(key) === wake) level.delete(key);
    };
  }

  /** Withdraw `key`'s request, if it has not run yet. */
  remove(key: string): void {
    for (const level of this.levels.values()) level.delete(key);
  }

  /** Requests not run yet. */
  get size(): number {
    let n = 0;
    for (const level of this.levels.values()) n += level.size;
    return n;
  }

  private kick(): void {
    if (this.scheduled || this.size === 0) return;
    this.scheduled = true;
    this.schedule(this.turn);
  }

  private readonly turn = (): void => {
    this.scheduled = false;
    const top = [...this.levels.entries()].filter(([, l]) => l.size > 0).sort((a, b) => b[0] - a[0])[0]?.[1];
    const next = top?.entries().next();
    if (!top || !next || next.done) return;
    const [key, wake] = next.value;
    top.delete(key);
    try {
      wake();
    } finally {
      this.kick();
    }
  };
}
