/**
 * One client's outgoing queue with backpressure (docs/architecture.md#backpressure). Frames count as in flight
 * from being pushed until the client acknowledges them. Over the bound (frames or bytes),
 * deltas are not forwarded and their nodes are marked dirty; once acknowledgements bring the
 * queue down to half the bound, the owner sends one snapshot per dirty node and forwarding
 * resumes. Everything that is not a delta is always sent.
 */
import type { HostPush } from '../../../shared/protocol/host-api';

export interface QueueBounds {
  /** Unacknowledged frames. Default 2000. */
  maxFrames: number;
  /** Unacknowledged bytes (JSON length). Default 8 MiB. */
  maxBytes: number;
}

export const DEFAULT_BOUNDS: QueueBounds = { maxFrames: 2000, maxBytes: 8 * 1024 * 1024 };

/** Key of a node in the dirty set. */
const nodeKey = (runId: string, nodeId: string): string => `${runId}\u0000${nodeId}`;

export class ClientQueue {
  private sizes: number[] = [];
  private head = 0;
  private bytes = 0;
  /** Over the bound: deltas are held back until the queue drains. */
  throttled = false;
  /** Nodes whose deltas were dropped, by key → { runId, nodeId }. */
  private readonly dirty = new Map<string, { runId: string; nodeId: string }>();
  /** Frames dropped since the client connected (diagnostics). */
  dropped = 0;

  constructor(
    private readonly send: (push: HostPush) => void,
    private readonly bounds: QueueBounds,
  ) {}

  get inFlight(): { frames: number; bytes: number } {
    return { frames: this.sizes.length - this.head, bytes: this.bytes };
  }

  /** Send a frame that is never dropped. */
  push(push: HostPush, size: number): void {
    this.track(size);
    this.send(push);
  }

  /** Send a delta unless the client is over its bound; returns false when it was held back. */
  offerDelta(push: HostPush, size: number, runId: string, nodeId: string): boolean {
    const key = nodeKey(runId, nodeId);
    if (!this.throttled && !this.dirty.has(key)) {
      const { frames, bytes } = this.inFlight;
      if (frames + 1 <= this.bounds.maxFrames && bytes + size <= this.bounds.maxBytes) {
        this.push(push, size);
        return true;
      }
      this.throttled = true;
    }
    this.dirty.set(key, { runId, nodeId });
    this.dropped++;
    return false;
  }

  /**
   * The client processed `count` frames. Returns true when the queue has drained below the
   * low-water mark while throttled: the owner should now send snapshots for the dirty nodes
   * and call `resume()`.
   */
  ack(count: number): boolean {
    const n = Math.max(0, Math.min(Math.floor(count), this.sizes.length - this.head));
    for (let i = 0; i < n; i++) this.bytes -= this.sizes[this.head++];
    if (this.head > 1024 && this.head * 2 > this.sizes.length) {
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
    if (!this.throttled) return false;
    const { frames, bytes } = this.inFlight;
    return frames <= this.bounds.maxFrames / 2 && bytes <= this.bounds.maxBytes / 2;
  }

  /**
   * The node needs no snapshot any more: it was just sent one, or it closed (its closing
   * tree_update carries its final output). Its next delta is forwarded again unless throttled.
   */
  markClean(runId: string, nodeId: string): void {
    this.dirty.delete(nodeKey(runId, nodeId));
  }

  /** Take the dirty nodes and resume forwarding deltas. */
  resume(): { runId: string; nodeId: string }[] {
    const list = [...this.dirty.values()];
    this.dirty.clear();
    this.throttled = false;
    return list;
  }

  private track(size: number): void {
    this.sizes.push(size);
    this.bytes += size;
  }
}
