/**
 * Benchmark 1, the streaming pipeline: a runner process (bench/stream-driver.ts, started by
 * the real RunSupervisor and NodeSpawner) streams K parallel llm nodes through the real
 * StreamBridge to one client. The client sees what a transport delivers: each push is
 * serialized to JSON (the wire bytes), parsed, applied to the shared StreamConsumer, and
 * acknowledged in batches every 16 ms like the renderer's AckBatcher.
 *
 * Figures per configuration: deltas/s, wire bytes per token, host CPU per 1,000 deltas (the
 * host's `process.cpuUsage()` minus the CPU the in-process client spent parsing and
 * applying; serializing each push stays in, as a transport does it in the host), latency from the token's creation in the runner to the client's state (p50,
 * p99; clocks are `performance.timeOrigin + now()` in both processes), and whether the text
 * assembled from deltas equals what was sent. Baseline: the same pipeline sending the node's
 * whole text as a tree_update on every token.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeSpawner } from '../main/core/process/node-spawner';
import { RunSupervisor } from '../main/core/supervisor/run-supervisor';
import { StreamBridge } from '../main/core/bridge/stream-bridge';
import { StreamConsumer } from '../shared/stream/consumer';
import type { HostPush } from '../shared/protocol/host-api';
import type { StreamEnvelope } from '../shared/protocol/envelopes';
import type { RunSpec } from '../shared/protocol/runner';
import { scriptedThread } from '../tests/support/threads';
import { nodeText, type DriverConfig } from './stream-tokens';
import { cpuMs, envList, envNum, epochMs, percentile, type Figure } from './lib';

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'stream-driver.ts');

/** What one pipeline run measured. */
export interface PipelineResult {
  cfg: DriverConfig;
  seconds: number;
  tokens: number;
  /** Stream frames (llm_delta, or tree_update carrying text in snapshot mode) the client got. */
  deltas: number;
  wireBytes: number;
  hostCpuMs: number;
  latencies: Float64Array;
  /** Nodes whose streamed text differs from what was sent. */
  mismatched: number;
  /** Deltas the bridge held back from the client (backpressure). */
  dropped: number;
}

/** Stream once through supervisor → bridge → client. */
export async function runPipeline(c: Omit<DriverConfig, 'timesFile'>): Promise<PipelineResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-'));
  const cfg: DriverConfig = { ...c, timesFile: path.join(dir, 'times.bin') };
  const runId = `bench-${c.mode}-${c.nodes}-${c.rate}-${c.tokens}`;
  const expected = Array.from({ length: c.nodes }, (_, k) => nodeText(k, c.tokens));
  const nodeIndex = new Map<string, number>();
  const shownLen = new Uint32Array(c.nodes);
  const recvAt = new Float64Array(c.nodes * c.tokens);
  const streamed: string[] = Array(c.nodes).fill('');
  let deltas = 0;
  let wireBytes = 0;
  let clientMs = 0;

  let closed!: () => void;
  const whenClosed = new Promise<void>((r) => (closed = r));
  const bridge = new StreamBridge({ log: () => {}, onRunClosed: () => closed() });
  const consumer = new StreamConsumer({});
  let unacked = 0;
  let ackTimer: NodeJS.Timeout | undefined;

  const markShown = (k: number, len: number, at: number) => {
    const ends = expected[k].ends;
    let i = shownLen[k] === 0 ? 0 : lowerBound(ends, shownLen[k] + 1);
    for (; i < ends.length && ends[i] <= len; i++) if (recvAt[k * c.tokens + i] === 0) recvAt[k * c.tokens + i] = at;
    shownLen[k] = Math.max(shownLen[k], len);
  };

  const client = bridge.addClient((push: HostPush) => {
    const wire = JSON.stringify(push);
    wireBytes += Buffer.byteLength(wire);
    const c0 = process.cpuUsage();
    const p = JSON.parse(wire) as HostPush;
    if (p.type === 'tree_update' || p.type === 'llm_delta' || p.type === 'node_snapshot') {
      if (p.type === 'tree_update') {
        for (const n of p.nodes) {
          if (n.kind !== 'llm') continue;
          if (!nodeIndex.has(n.id)) nodeIndex.set(n.id, Number(n.name.split(' ')[1]));
          const k = nodeIndex.get(n.id)!;
          const text = (n.output as { text?: string } | undefined)?.text;
          if (n.status === 'completed') streamed[k] = c.mode === 'delta' ? (consumer.get(n.id)?.text ?? '') : streamed[k];
          else if (typeof text === 'string') {
            deltas++;
            streamed[k] = text;
            markShown(k, text.length, epochMs());
          }
        }
      }
      consumer.apply(p as StreamEnvelope);
      if (p.type === 'llm_delta') {
        deltas++;
        const k = nodeIndex.get(p.nodeId)!;
        markShown(k, consumer.get(p.nodeId)!.text.length, epochMs());
      }
    }
    unacked++;
    ackTimer ??= setTimeout(() => {
      ackTimer = undefined;
      const n = unacked;
      unacked = 0;
      client.ack(n);
    }, 16);
    clientMs += cpuMs(c0);
  });
  client.subscribe();

  const supervisor = new RunSupervisor({
    spawner: new NodeSpawner({ stdout: 'pipe' }),
    entry: DRIVER,
    env: { STEPWISE_BENCH_STREAM: JSON.stringify(cfg) },
    listener: {
      message: (id, msg) => bridge.handle(id, msg),
      exit: (id, exit) => {
        if (exit.abnormal) process.stderr.write(`stream driver exited abnormally: ${exit.stderrTail}\n`);
        void bridge.closeRun(id, { status: 'interrupted', reason: 'driver exited' });
      },
    },
  });
  const thread = scriptedThread([{ text: 'unused' }]);
  const spec: RunSpec = { runId, threadId: thread.id, thread, mode: 'step', providers: [], home: dir, workspaceDir: dir };
  bridge.openRun({ runId, threadId: thread.id, mode: 'step' });

  // Measure from the first token's arrival, so process start-up is not in the rates.
  const started = new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (deltas > 0) {
        clearInterval(poll);
        resolve();
      }
    }, 1);
  });
  const run = supervisor.start(spec);
  await started;
  const first = performance.now();
  const cpu0 = process.cpuUsage();
  const client0 = clientMs;
  const deltas0 = deltas;
  await whenClosed;
  const seconds = (performance.now() - first) / 1000;
  const hostCpuMs = cpuMs(cpu0) - (clientMs - client0);
  await run.exited;
  if (ackTimer) clearTimeout(ackTimer);

  const raw = readFileSync(cfg.timesFile);
  const sentAt = new Float64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  rmSync(dir, { recursive: true, force: true });
  const lat = new Float64Array(sentAt.length);
  let n = 0;
  for (let i = 0; i < sentAt.length; i++) if (recvAt[i] > 0 && sentAt[i] > 0) lat[n++] = recvAt[i] - sentAt[i];
  const mismatched = expected.filter((e, k) => streamed[k] !== e.text).length;
  return {
    cfg,
    seconds,
    tokens: c.nodes * c.tokens,
    deltas: deltas - deltas0,
    wireBytes,
    hostCpuMs,
    latencies: lat.subarray(0, n),
    mismatched: mismatched + (sentAt.length - n),
    dropped: 0,
  };
}

function lowerBound(a: Uint32Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const B = 'streaming';

/** Run the streaming benchmark. Sizes: BENCH_STREAM_K, BENCH_STREAM_SECONDS, BENCH_STREAM_RATE, BENCH_STREAM_MAX_TOKENS. */
export async function streamingBench(report: (f: Figure) => void): Promise<void> {
  const ks = envList('BENCH_STREAM_K', [1, 20, 100]);
  const rate = envNum('BENCH_STREAM_RATE', 50);
  const seconds = envNum('BENCH_STREAM_SECONDS', 3);
  const maxTokens = envNum('BENCH_STREAM_MAX_TOKENS', 10000);
  const tokens = Math.round(rate * seconds);

  for (const k of ks) {
    const d = await runPipeline({ nodes: k, tokens, rate, mode: 'delta' });
    const s = await runPipeline({ nodes: k, tokens, rate, mode: 'snapshot' });
    const label = `K=${k} @${rate} tok/s`;
    const perTok = (r: PipelineResult) => r.wireBytes / r.tokens;
    const cpuPerK = (r: PipelineResult) => (1000 * r.hostCpuMs) / Math.max(1, r.deltas);
    report({ bench: B, name: `${label}: deltas/s`, value: d.deltas / d.seconds, unit: '/s', baseline: { label: 'snapshot/token', value: s.deltas / s.seconds } });
    report({ bench: B, name: `${label}: wire bytes/token`, value: perTok(d), unit: 'B', baseline: { label: 'snapshot/token', value: perTok(s) }, ratio: perTok(s) / perTok(d), ratioLabel: 'fewer' });
    report({ bench: B, name: `${label}: host CPU per 1,000 deltas`, value: cpuPerK(d), unit: 'ms', baseline: { label: 'snapshot/token', value: cpuPerK(s) } });
    report({ bench: B, name: `${label}: host CPU per 1,000 tokens`, value: (1000 * d.hostCpuMs) / d.tokens, unit: 'ms', baseline: { label: 'snapshot/token', value: (1000 * s.hostCpuMs) / s.tokens }, ratio: s.hostCpuMs / d.hostCpuMs, ratioLabel: 'less' });
    const p50 = percentile(d.latencies, 50);
    const p99 = percentile(d.latencies, 99);
    report({ bench: B, name: `${label}: latency p50`, value: p50, unit: 'ms', baseline: { label: 'snapshot/token', value: percentile(s.latencies, 50) } });
    const isTarget = k === 100 && rate === 50;
    report({
      bench: B,
      name: `${label}: latency p99`,
      value: p99,
      unit: 'ms',
      baseline: { label: 'snapshot/token', value: percentile(s.latencies, 99) },
      target: isTarget ? { text: 'p99 < 50 ms', met: p99 < 50 } : undefined,
    });
    report({
      bench: B,
      name: `${label}: nodes with lost/changed text`,
      value: d.mismatched,
      unit: `of ${k}`,
      target: isTarget ? { text: 'nothing lost', met: d.mismatched === 0 } : undefined,
    });
  }

  for (const k of ks) {
    const per = Math.max(1, Math.floor(maxTokens / k));
    const d = await runPipeline({ nodes: k, tokens: per, rate: 0, mode: 'delta' });
    const s = await runPipeline({ nodes: k, tokens: Math.min(per, 2000), rate: 0, mode: 'snapshot' });
    const label = `K=${k} max rate`;
    report({ bench: B, name: `${label}: tokens/s`, value: d.tokens / d.seconds, unit: 'tok/s', baseline: { label: 'snapshot/token', value: s.tokens / s.seconds }, ratio: d.tokens / d.seconds / (s.tokens / s.seconds), ratioLabel: 'faster' });
    report({ bench: B, name: `${label}: deltas/s (coalesced ≤16 ms / 8 KiB)`, value: d.deltas / d.seconds, unit: '/s', baseline: { label: 'snapshot/token', value: s.deltas / s.seconds } });
    report({ bench: B, name: `${label}: wire bytes/token`, value: d.wireBytes / d.tokens, unit: 'B', baseline: { label: 'snapshot/token', value: s.wireBytes / s.tokens } });
    report({ bench: B, name: `${label}: host CPU per 1,000 tokens`, value: (1000 * d.hostCpuMs) / d.tokens, unit: 'ms', baseline: { label: 'snapshot/token', value: (1000 * s.hostCpuMs) / s.tokens } });
    report({ bench: B, name: `${label}: latency p50 / p99`, value: percentile(d.latencies, 50), unit: `ms / ${Math.round(percentile(d.latencies, 99))} ms`, note: 'queueing at max rate' });
    report({ bench: B, name: `${label}: nodes with lost/changed text`, value: d.mismatched, unit: `of ${k}`, target: { text: 'nothing lost', met: d.mismatched === 0 } });
  }

  // Growth of wire bytes with message length: L and 4L tokens on one node.
  const short = envNum('BENCH_STREAM_GROWTH_TOKENS', 250);
  const growthRate = 500;
  const grow = async (mode: 'delta' | 'snapshot') => {
    const a = await runPipeline({ nodes: 1, tokens: short, rate: growthRate, mode });
    const b = await runPipeline({ nodes: 1, tokens: short * 4, rate: growthRate, mode });
    return b.wireBytes / a.wireBytes;
  };
  const gd = await grow('delta');
  const gs = await grow('snapshot');
  report({
    bench: B,
    name: `wire bytes growth, ${short}→${short * 4} tokens (×4 length)`,
    value: gd,
    unit: '×',
    baseline: { label: 'snapshot/token', value: gs },
    target: { text: 'linear: ≤ 4.4× for ×4 length', met: gd <= 4.4 },
  });
}
