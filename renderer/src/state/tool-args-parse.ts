/**
 * One tool call's streamed arguments as the execution tree shows them
 * (docs/architecture.md#sequence-and-snapshots): the raw text parsed as partial JSON. While the text is a prefix of valid JSON it is parsed incrementally
 * ({@link PartialJsonStream}: each delta costs its own length, a frame's value rebuilds only the
 * open path). Text that is not (a model's malformed JSON) is shown as before: `partial-json` on
 * the whole text, which tolerates some errors, at most once per frame and throttled by its cost.
 */
import { parse as parsePartialJson } from 'partial-json';
import { PartialJsonStream } from '../../../shared/json/partial-json-stream';

/** `partial-json`'s reading of `raw`; undefined when nothing parses (blank or broken text). */
export function parseArgsText(raw: string): unknown {
  if (!raw.trim()) return undefined;
  try {
    return parsePartialJson(raw);
  } catch {
    return undefined;
  }
}

/** Parsing work in units that do not depend on timing. */
export interface ArgsWork {
  /** Characters read. */
  read: number;
  /** Containers and members copied to build shown values. */
  built: number;
}

/** Parse state of one tool call's argument text (see the module comment). */
export class ToolArgsParse {
  private stream = new PartialJsonStream();
  /** The text was replaced (snapshot, final output): rebuild from the whole text at the next read. */
  private stale = false;
  // The whole-text path (invalid JSON only).
  private raw?: string;
  private parsed: unknown;
  private at?: number;
  private cost = 0;
  /** Work of whole-text parses and of replaced streams. */
  private readonly pastWork = { read: 0, built: 0 };

  /** `delta` was appended to the text. */
  append(delta: string): void {
    if (!this.stale) this.stream.push(delta);
  }

  /** The text was replaced rather than appended to. */
  replaced(): void {
    this.stale = true;
  }

  /**
   * The arguments to show for `raw`, the call's whole current text. `now` is stream time in ms;
   * `final` says the call's node ended (its text is always parsed then). Undefined where nothing
   * parses yet.
   */
  read(raw: string, now: number, final: boolean): unknown {
    // Appends arrive through `append`; a length that disagrees means text was replaced unseen.
    if (this.stale || this.stream.length !== raw.length) {
      this.pastWork.read += this.stream.work.scanned;
      this.pastWork.built += this.stream.work.built;
      this.stream = new PartialJsonStream();
      this.stream.push(raw);
      this.stale = false;
    }
    const r = this.stream.value();
    if (r.ok) return r.value;
    if (r.reason === 'incomplete') return undefined;
    // At most ~5 % of the main thread for large broken text: a parse that cost c ms waits 20·c ms
    // of stream time before the next one. The final text is always parsed.
    const due = final || this.at === undefined || now - this.at >= 20 * this.cost;
    if (this.raw !== raw && due) {
      this.raw = raw;
      const t0 = performance.now();
      this.parsed = parseArgsText(raw);
      this.cost = performance.now() - t0;
      this.at = now;
      this.pastWork.read += raw.length;
    }
    return this.parsed;
  }

  /** Parsing work so far, for tests and benchmarks: characters read (a whole-text parse reads
   * the whole text) and containers and members copied to build values (see `PartialJsonWork`). */
  get work(): ArgsWork {
    return { read: this.pastWork.read + this.stream.work.scanned, built: this.pastWork.built + this.stream.work.built };
  }
}
