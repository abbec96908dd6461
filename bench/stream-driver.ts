/**
 * Benchmark-only runner process for the streaming benchmark. Started by the real RunSupervisor
 * and NodeSpawner in place of the agent-runner (`entry`), it speaks the runner frames on
 * `channelPort('run')` and uses the runner's own RunEmitter (per-node seq, 16 ms / 8 KiB
 * coalescing) and RunTree to open K llm nodes under a run node and stream tokens into them at
 * a set rate. Each token's send time is recorded and written to `timesFile` before `done`.
 * In `snapshot` mode (the baseline) every token is instead sent as a tree_update carrying the
 * node's whole text so far.
 */
import { writeFileSync } from 'node:fs';
import type { HostToRunner, RunnerToHost } from '../shared/protocol/runner';
import { channelPort, flushLink } from '../shared/process-port.node.js';
import { RunEmitter } from '../agent-runner/emit/emitter';
import { RunTree } from '../agent-runner/loop/tree';
import { tokenAt, type DriverConfig } from './stream-tokens';

const cfg = JSON.parse(process.env.STEPWISE_BENCH_STREAM ?? 'null') as DriverConfig | null;
if (!cfg) throw new Error('STEPWISE_BENCH_STREAM is not set: this entry is started by bench/streaming.ts');
const port = channelPort<HostToRunner, RunnerToHost>('run');
const now = () => performance.timeOrigin + performance.now();
let started = false;

port.onMessage((msg) => {
  if (msg.type !== 'start' || started) return;
  started = true;
  void drive(msg.spec.runId, cfg).then(async () => {
    await flushLink();
    process.exit(0);
  });
});

async function drive(runId: string, c: DriverConfig): Promise<void> {
  const emitter = new RunEmitter(runId, (m) => port.post(m));
  const tree = new RunTree(runId, emitter);
  const root = tree.open({ kind: 'run', name: 'bench' });
  const ids: string[] = [];
  for (let k = 0; k < c.nodes; k++) ids.push(tree.open({ kind: 'llm', name: `node ${k}`, parentId: root, model: 'bench' }));
  const times = new Float64Array(c.nodes * c.tokens);
  const sent = new Uint32Array(c.nodes);
  const texts = ids.map(() => '');

  const emit = (k: number): void => {
    const i = sent[k]++;
    const tok = tokenAt(k, i);
    times[k * c.tokens + i] = now();
    if (c.mode === 'delta') {
      emitter.delta(ids[k], 'text', 0, tok);
    } else {
      texts[k] += tok;
      emitter.tree([{ ...tree.get(ids[k])!, output: { text: texts[k] } }]); // the whole node, as a tree_update
    }
  };

  if (c.rate > 0) {
    // Node k starts k/K of a token interval late, so arrivals spread evenly.
    const interval = 1000 / c.rate;
    const t0 = now();
    for (;;) {
      const elapsed = now() - t0;
      let left = false;
      for (let k = 0; k < c.nodes; k++) {
        const due = Math.min(c.tokens, Math.floor((elapsed - (k / c.nodes) * interval) / interval) + 1);
        while (sent[k] < due) emit(k);
        if (sent[k] < c.tokens) left = true;
      }
      if (!left) break;
      await new Promise((r) => setTimeout(r, 1));
    }
  } else {
    let total = 0;
    for (let i = 0; i < c.tokens; i++) {
      for (let k = 0; k < c.nodes; k++) {
        emit(k);
        if (++total % 500 === 0) await new Promise((r) => setImmediate(r));
      }
    }
  }
  for (let k = 0; k < c.nodes; k++) {
    let full = '';
    for (let i = 0; i < c.tokens; i++) full += tokenAt(k, i);
    tree.close(ids[k], { status: 'completed', output: { text: full } });
  }
  tree.close(root, { status: 'completed' });
  writeFileSync(c.timesFile, Buffer.from(times.buffer));
  emitter.send({ v: 1, type: 'done', runId });
  emitter.close();
}
