/**
 * A simulated transport between windows and the host for the multi-window benchmark: one FIFO
 * channel per direction per window, like the web host's WebSocket (docs/architecture.md#host-api).
 * Every frame is JSON text; its UTF-8 size is counted, and the receiver gets `JSON.parse` of it, so
 * serialising and parsing cost what they cost on the real transport. Time is virtual (ms): a frame
 * sent at `now` arrives `latencyMs` later, never before an earlier frame of its channel. Two ways
 * to move frames: by time ({@link Net.nextAt} / {@link Net.deliverNext}), or in any order a caller
 * chooses ({@link Net.busy} / {@link Net.deliver}), which is how the property runs pick interleavings.
 */

/** One frame in flight. */
interface Frame {
  at: number;
  seq: number;
  text: string;
  receive: (msg: unknown) => void;
}

/** One direction of one window's connection. */
export interface Channel {
  readonly name: string;
  /** up: window → host; down: host → window. */
  readonly dir: 'up' | 'down';
  readonly queue: Frame[];
  last: number;
}

/** Frame counts and UTF-8 bytes, per direction. */
export interface Traffic {
  upFrames: number;
  upBytes: number;
  downFrames: number;
  downBytes: number;
  /** Bytes of the edits alone: the patches' JSON, or the Yjs updates' binary length. */
  payloadBytes: number;
}

export const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

export class Net {
  now = 0;
  private seq = 0;
  readonly channels: Channel[] = [];
  readonly traffic: Traffic = { upFrames: 0, upBytes: 0, downFrames: 0, downBytes: 0, payloadBytes: 0 };

  /** `latencyMs`: one-way delay of every frame. */
  constructor(readonly latencyMs: number) {}

  /** A new channel; `send(msg, receive)` serialises `msg` and hands the parsed copy to `receive` on delivery. */
  channel(name: string, dir: 'up' | 'down'): (msg: unknown, receive: (msg: unknown) => void) => void {
    const ch: Channel = { name, dir, queue: [], last: 0 };
    this.channels.push(ch);
    return (msg, receive) => {
      const text = JSON.stringify(msg);
      const bytes = utf8(text);
      if (dir === 'up') {
        this.traffic.upFrames++;
        this.traffic.upBytes += bytes;
      } else {
        this.traffic.downFrames++;
        this.traffic.downBytes += bytes;
      }
      const at = Math.max(this.now + this.latencyMs, ch.last);
      ch.last = at;
      ch.queue.push({ at, seq: this.seq++, text, receive });
    };
  }

  /** Count the bytes of an edit's payload (patches or update), beside its frame. */
  payload(bytes: number): void {
    this.traffic.payloadBytes += bytes;
  }

  /** Channels with a frame in flight. */
  busy(): Channel[] {
    return this.channels.filter((c) => c.queue.length > 0);
  }

  /** Deliver the oldest frame of `ch` now. */
  deliver(ch: Channel): void {
    const f = ch.queue.shift();
    if (!f) throw new Error(`nothing in flight on ${ch.name}`);
    f.receive(JSON.parse(f.text));
  }

  /** Arrival time of the next frame, or Infinity when none is in flight. */
  nextAt(): number {
    let best = Infinity;
    for (const c of this.channels) if (c.queue.length && c.queue[0].at < best) best = c.queue[0].at;
    return best;
  }

  /** Deliver the frame that arrives first (time moves to its arrival); returns its channel. */
  deliverNext(): Channel {
    let pick: Channel | undefined;
    for (const c of this.channels) if (c.queue.length && (!pick || c.queue[0].at < pick.queue[0].at || (c.queue[0].at === pick.queue[0].at && c.queue[0].seq < pick.queue[0].seq))) pick = c;
    if (!pick) throw new Error('nothing in flight');
    this.now = Math.max(this.now, pick.queue[0].at);
    this.deliver(pick);
    return pick;
  }
}

/** Let every promise continuation that a delivery started run (a window's send loop). */
export const drain = (): Promise<void> => new Promise((r) => setImmediate(r));
