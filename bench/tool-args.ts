/**
 * Benchmark 3, tool-argument streaming: a BENCH_TOOLARGS_KB (default 200) KB JSON argument
 * arrives as 1-character `tool_args` deltas and goes through the renderer's real StreamStore
 * (StreamConsumer + Jotai atoms; partial arguments parsed incrementally as deltas arrive, their
 * value built when a node's atom is published; the `argparse` benchmark compares that parser
 * with `partial-json` on the whole text). Frames are simulated: at BENCH_TOOLARGS_RATE deltas
 * per second (default 1,000, a fast model streaming 1-character deltas), the store is flushed
 * every 16 ms of simulated time, i.e. every rate×16/1000 deltas. Baseline: publishing (and so
 * building the value) on every delta, as a store without frame batching would.
 *
 * Publishing on every delta used to cost a whole-text parse per delta (hours at this size), so
 * the per-delta side times an even sample of its flushes (every BENCH_TOOLARGS_SAMPLE-th, by
 * default about 150 in all) and scales by the stride; the frame side times every flush, and
 * applying every delta is timed in full. CPU is `process.cpuUsage()`.
 */
import { createStore } from 'jotai';
import { StreamStore } from '../renderer/src/state/stream-store';
import type { HostPush } from '../shared/protocol/host-api';
import { cpuMs, envNum, lessThanBaseline, type Figure } from './lib';

/** A deterministic JSON argument of about `kb` KB (a file-writing call with nested records). */
export function bigArgument(kb: number): unknown {
  const rows: unknown[] = [];
  let size = 0;
  for (let i = 0; size < kb * 1000 - 200; i++) {
    const row = { id: i, name: `row ${i}`, tags: ['alpha', 'beta', i % 3 ? 'gamma' : 'delta'], score: (i * 37) % 1000 / 10, note: `line ${i} of the generated file, with "quotes" and \\ slashes` };
    size += JSON.stringify(row).length + 1;
    rows.push(row);
  }
  return { path: '/tmp/out.json', mode: 'overwrite', rows };
}

interface SideResult {
  cpuMs: number;
  parses: number;
  final: unknown;
}

/**
 * Apply every delta; flush every `every` deltas; time every `stride`-th flush and scale.
 * The frame side flushes every frame (stride 1): the store throttles large parses by stream
 * time, so frames do not all cost the same and sampling would misstate them. Only the
 * per-delta baseline, whose parses all cost about the same, is sampled.
 */
function stream(raw: string, every: number, stride: number, rate: number): SideResult {
  const atoms = createStore();
  // Stream time is simulated: delta i arrives at i / rate seconds.
  let simMs = 0;
  const store = new StreamStore(atoms, { requestSnapshot: () => {}, schedule: () => {}, clock: () => simMs });
  const runId = 'r1';
  const nodeId = 'r1.2';
  store.apply({ v: 1, type: 'tree_update', runId, nodes: [{ id: nodeId, runId, kind: 'llm', name: 'llm', status: 'running', startedAt: 0 }] });
  store.flush();
  let applyMs = 0;
  let flushMs = 0;
  let flushes = 0;
  const env = { v: 1 as const, type: 'llm_delta' as const, runId, nodeId, channel: 'tool_args' as const, index: 0, toolCallId: 'c1', delta: '', seq: 0 };
  for (let i = 0; i < raw.length; ) {
    const end = Math.min(raw.length, i + every);
    const c0 = process.cpuUsage();
    for (; i < end; i++) {
      env.delta = raw[i];
      env.seq = i + 1;
      simMs = ((i + 1) * 1000) / rate;
      store.apply({ ...env } as HostPush);
    }
    applyMs += cpuMs(c0);
    if (flushes++ % stride === 0 || i === raw.length) {
      const f0 = process.cpuUsage();
      store.flush();
      flushMs += cpuMs(f0) * (i === raw.length && (flushes - 1) % stride !== 0 ? 1 : stride);
    }
  }
  // The stream ends as real ones do: the node's closing update (its arguments then parse in full).
  const c1 = process.cpuUsage();
  store.apply({ v: 1, type: 'tree_update', runId, nodes: [{ id: nodeId, runId, kind: 'llm', name: 'llm', status: 'completed', startedAt: 0, endedAt: simMs }] });
  store.flush();
  flushMs += cpuMs(c1);
  return { cpuMs: applyMs + flushMs, parses: flushes, final: atoms.get(store.nodeAtom(nodeId))?.args[0] };
}

export async function toolArgsBench(report: (f: Figure) => void): Promise<void> {
  const kb = envNum('BENCH_TOOLARGS_KB', 200);
  const rate = envNum('BENCH_TOOLARGS_RATE', 1000);
  const arg = bigArgument(kb);
  const raw = JSON.stringify(arg);
  const perFrame = Math.max(1, Math.round((rate * 16) / 1000));
  const frameSide = stream(raw, perFrame, 1, rate);
  const deltaSide = stream(raw, 1, Math.max(1, Math.round(envNum('BENCH_TOOLARGS_SAMPLE', Math.ceil(raw.length / 150)))), rate);
  const same = JSON.stringify(frameSide.final) === raw && JSON.stringify(deltaSide.final) === raw;
  const B = 'toolargs';
  report({ bench: B, name: `${(raw.length / 1000).toFixed(0)} KB argument, 1-char deltas @${rate}/s: frames flushed`, value: frameSide.parses, unit: "frames", baseline: { label: "parse per delta", value: deltaSide.parses } });
  report(
    lessThanBaseline(
      { bench: B, name: `CPU, parse once per 16 ms frame (${perFrame} deltas)`, value: frameSide.cpuMs, unit: 'ms', baseline: { label: 'parse per delta, sampled', value: deltaSide.cpuMs } },
      { times: 20, what: 'CPU' },
    ),
  );
  report({ bench: B, name: 'CPU per frame at the end of the stream (one parse)', value: frameSide.cpuMs / frameSide.parses, unit: 'ms avg', note: 'average over frames' });
  report({ bench: B, name: 'final arguments equal what was sent', value: same ? 1 : 0, unit: same ? '(yes)' : '(NO)', target: { text: 'equal', met: same } });
}
