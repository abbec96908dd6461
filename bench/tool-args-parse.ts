/**
 * Benchmark `argparse`, partial parsing of a streamed tool argument: a BENCH_ARGPARSE_KB
 * (default 50) KB JSON argument (`bigArgument`) arrives in 1–4 character deltas (a fixed
 * pseudo-random sequence) at BENCH_ARGPARSE_RATE deltas per second (default 100); frames come
 * every 16 ms of simulated stream time, and a frame with new text shows the partial value.
 *
 * New: `PartialJsonStream` (shared/json/) takes each delta as it arrives and builds the value at
 * each frame. Baseline, in the same run: the renderer's previous path, `partial-json` on the whole
 * text at each frame (`parseArgsText`). Everything is timed in full (no sampling); CPU is
 * `process.cpuUsage()`. Growth compares characters read per frame (a count, not a time) in the
 * last tenth of the frames with the first.
 */
import { PartialJsonStream } from '../shared/json/partial-json-stream';
import { parseArgsText } from '../renderer/src/state/tool-args-parse';
import { bigArgument } from './tool-args';
import { cpuMs, envNum, lessThanBaseline, type Figure } from './lib';

/** Deterministic 1–4 character deltas of `raw` (mulberry32, fixed seed). */
export function smallDeltas(raw: string): string[] {
  let a = 0x5eed;
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: string[] = [];
  for (let i = 0; i < raw.length; ) {
    const n = 1 + Math.floor(rand() * 4);
    out.push(raw.slice(i, i + n));
    i += n;
  }
  return out;
}

interface Side {
  /** Take one delta. */
  delta(d: string): void;
  /** Show the value at a frame. */
  frame(): unknown;
  /** Work so far: characters read, containers and members copied to build values. */
  work(): { read: number; built: number };
}

/** Work and CPU of one tenth of the frames. */
interface Tenth {
  cpuMs: number;
  read: number;
  built: number;
}

interface Run {
  cpuMs: number;
  frames: number;
  first: Tenth;
  last: Tenth;
  final: unknown;
}

/** Streams `deltas` at `rate` per second into `side`, a frame every 16 ms of stream time. */
function stream(deltas: string[], rate: number, side: Side): Run {
  // Frames that have new text: the index of the first delta after each. Delta i arrives at i / rate s.
  const ends: number[] = [];
  for (let t = 16, i = 0; i < deltas.length; t += 16) {
    const from = i;
    while (i < deltas.length && (i * 1000) / rate < t) i++;
    if (i > from) ends.push(i);
  }
  const tenth = Math.max(1, Math.floor(ends.length / 10));
  // CPU and work are read only at the start, the two tenth boundaries and the end, so reading them costs nothing measurable.
  const c0 = process.cpuUsage();
  const mark = (): Tenth => ({ cpuMs: cpuMs(c0), ...side.work() });
  const zero = mark();
  let afterFirst = zero;
  let beforeLast = zero;
  let last: unknown;
  for (let f = 0, i = 0; f < ends.length; f++) {
    if (f === tenth) afterFirst = mark();
    if (f === ends.length - tenth) beforeLast = mark();
    for (; i < ends[f]; i++) side.delta(deltas[i]);
    last = side.frame();
  }
  const end = mark();
  const diff = (a: Tenth, b: Tenth): Tenth => ({ cpuMs: b.cpuMs - a.cpuMs, read: b.read - a.read, built: b.built - a.built });
  return { cpuMs: end.cpuMs - zero.cpuMs, frames: ends.length, first: diff(zero, afterFirst), last: diff(beforeLast, end), final: last };
}

export async function toolArgsParseBench(report: (f: Figure) => void): Promise<void> {
  const kb = envNum('BENCH_ARGPARSE_KB', 50);
  const rate = envNum('BENCH_ARGPARSE_RATE', 100);
  const raw = JSON.stringify(bigArgument(kb));
  const deltas = smallDeltas(raw);

  const wholeText = (): Side => {
    let text = '';
    let read = 0;
    return {
      delta: (d) => void (text += d),
      frame: () => {
        read += text.length; // partial-json reads the whole text
        return parseArgsText(text);
      },
      work: () => ({ read, built: 0 }),
    };
  };
  let p = new PartialJsonStream();
  const incrementalSide = (): Side => {
    p = new PartialJsonStream();
    return {
      delta: (d) => p.push(d),
      frame: () => {
        const r = p.value();
        return r.ok ? r.value : undefined;
      },
      work: () => ({ read: p.work.scanned, built: p.work.built }),
    };
  };
  // Warm-up (untimed), so that neither side's first tenth pays for compiling the code.
  const warm = smallDeltas(JSON.stringify(bigArgument(5)));
  stream(warm, rate, wholeText());
  stream(warm, rate, incrementalSide());

  const baseline = stream(deltas, rate, wholeText());
  const incremental = stream(deltas, rate, incrementalSide());

  const B = 'argparse';
  report({ bench: B, name: `${(raw.length / 1000).toFixed(0)} KB argument, ${deltas.length} deltas of 1–4 chars @${rate}/s`, value: incremental.frames, unit: 'frames', baseline: { label: 'partial-json per frame', value: baseline.frames } });
  report(
    lessThanBaseline(
      { bench: B, name: 'parse CPU, incremental vs whole text per frame', value: incremental.cpuMs, unit: 'ms', baseline: { label: 'partial-json per frame', value: baseline.cpuMs } },
      { times: 10, what: 'parse CPU' },
    ),
  );
  const growth = (r: Run) => r.last.read / r.first.read;
  report({ bench: B, name: 'characters read per frame, last tenth ÷ first tenth', value: growth(incremental), unit: '×', baseline: { label: 'partial-json per frame', value: growth(baseline) }, note: 'about 1: a delta costs the same wherever it falls' });
  report({ bench: B, name: 'parse work: characters read per character sent', value: p.work.scanned / raw.length, unit: '×' });
  const perFrame = (t: Tenth) => t.built / Math.max(1, Math.floor(incremental.frames / 10));
  report({ bench: B, name: 'members copied per frame value (open path), last tenth', value: perFrame(incremental.last), unit: 'avg', baseline: { label: 'first tenth', value: perFrame(incremental.first) }, note: "the open path's containers are rebuilt, their closed members shared by pointer" });
  const same = JSON.stringify(incremental.final) === raw && JSON.stringify(baseline.final) === raw;
  report({ bench: B, name: 'final value equals what was sent (both sides)', value: same ? 1 : 0, unit: same ? '(yes)' : '(NO)', target: { text: 'equal', met: same } });
}
