/**
 * Shared pieces of the benchmarks: the figure record every benchmark returns, percentiles,
 * sizes from the environment, the one-line printout (`ok` / `MISSED` against a target), and the
 * frame of a bench thread.
 */
import type { Thread } from '../shared/thread/schema';

/** One measured figure, compared with a baseline measured in the same run. */
export interface Figure {
  /** Benchmark name (`streaming`, `renderer`, …). */
  bench: string;
  /** What was measured, e.g. `K=100 @50 tok/s: p99 latency`. */
  name: string;
  value: number;
  unit: string;
  /** The baseline's value for the same figure, when there is one. */
  baseline?: { label: string; value: number };
  /** How the value compares with the baseline (baseline / value or value / baseline, see `ratioLabel`). */
  ratio?: number;
  ratioLabel?: string;
  /** A target this figure must meet. */
  target?: { text: string; met: boolean };
  /** How the figure was obtained, when that needs saying. */
  note?: string;
}

/**
 * A figure where less is better, against its baseline: `ratio` is baseline ÷ value ("N× less");
 * with `atLeast`, the target is that ratio reaching `atLeast.times` (`atLeast.what` names what
 * is less, e.g. `CPU`).
 */
export function lessThanBaseline(f: Omit<Figure, 'baseline' | 'ratio' | 'ratioLabel' | 'target'> & { baseline: { label: string; value: number } }, atLeast?: { times: number; what: string }): Figure {
  const ratio = f.baseline.value / f.value;
  return { ...f, ratio, ratioLabel: 'less', ...(atLeast ? { target: { text: `≥ ${atLeast.times}× less ${atLeast.what}`, met: ratio >= atLeast.times } } : {}) };
}

/** A thread on the scripted model with a fixed `id` (runs stay comparable) holding `context`. */
export function benchThread(id: string, title: string, context: Thread['context']): Thread {
  return { version: 1, id, title, model: { provider: 'scripted', id: 'scripted', params: {} }, context, runRefs: [] };
}

/** Integer from env `name`, else `def`. Throws on a value that is not a positive number. */
export function envNum(name: string, def: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}=${raw} is not a positive number`);
  return n;
}

/** Comma-separated list of positive integers from env `name`, else `def`. */
export function envList(name: string, def: number[]): number[] {
  const raw = process.env[name];
  if (!raw) return def;
  const out = raw.split(',').map((s) => Number(s.trim()));
  if (out.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`${name}=${raw} is not a list of positive integers`);
  return out;
}

/** A small deterministic PRNG (mulberry32), so every run makes the same inputs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The p-th percentile (0–100) of `values` (nearest rank); NaN when empty. */
export function percentile(values: ArrayLike<number>, p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/**
 * The largest of `values` and `floor` (default 0). A loop, not `Math.max(...values)`: spread
 * into a call, ~100,000 values overflow the call stack (a growing tree's row×frame counts did).
 */
export function maxOf(values: Iterable<number>, floor = 0): number {
  let m = floor;
  for (const v of values) if (v > m) m = v;
  return m;
}

/** Wall-clock epoch time in ms with sub-ms resolution (comparable across processes). */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** CPU time (user + system) in ms since `since` (a `process.cpuUsage()` reading). */
export function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

/** Run the collector when the process was started with --expose-gc (run.ts makes sure it is). */
export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('the benchmark needs --expose-gc (start it through bench/run.ts)');
  g();
  g();
}

/** A number for the printout: 3 significant digits, no exponent for ordinary sizes. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const a = Math.abs(n);
  if (a >= 1000) return Math.round(n).toLocaleString('en-US');
  if (a >= 100) return n.toFixed(0);
  if (a >= 10) return n.toFixed(1);
  if (a >= 1) return n.toFixed(2);
  return n.toPrecision(3);
}

/** One printed line per figure: value, baseline, ratio, target verdict. */
export function formatFigure(f: Figure): string {
  const parts = [`${f.bench.padEnd(10)} ${f.name.padEnd(52)} ${`${fmt(f.value)} ${f.unit}`.padEnd(18)}`];
  if (f.baseline) parts.push(`baseline(${f.baseline.label}) ${fmt(f.baseline.value)} ${f.unit}`);
  if (f.ratio !== undefined) parts.push(`ratio ${fmt(f.ratio)}×${f.ratioLabel ? ` ${f.ratioLabel}` : ''}`);
  if (f.target) parts.push(`${f.target.met ? 'ok' : 'MISSED'} (${f.target.text})`);
  return parts.join(' | ');
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
