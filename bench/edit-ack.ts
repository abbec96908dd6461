/**
 * Benchmark 6, durable edit acknowledgements: BENCH_EDIT_KEYS keys (default 60) typed into a
 * thread's system prompt at BENCH_EDIT_RATE keys per second (default 10), one `thread.edit`
 * per key, through the host's real ThreadStore and thread files, for threads of each size in
 * BENCH_EDIT_MB (MB, default `0,50`; 0 is a small thread of a few hundred bytes, larger ones are
 * the undo benchmark's thread of base64 images). Key i is sent at i / rate s (or when the
 * previous one was acknowledged, if later); its latency is the time until the edit is answered.
 *
 * Durable: the store with its edit log, so each answer waits for the append and its fdatasync.
 * Baseline, same run, same files: the old path, answered as soon as the edit is applied (the
 * debounced save writes it ~300 ms after typing stops). Files go to BENCH_EDIT_DIR (default the
 * OS temp folder; its disk sets the fdatasync cost). Bytes per key: what the edit log grew by
 * while typing, divided by the keys. The save after typing stops is timed on both sides (the
 * durable one also hashes the document for its `saving` marker and removes the log).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ThreadStore } from '../main/core/store/thread-store';
import { loadThreadFile, saveThreadFile, serializeThread } from '../main/core/threads/thread-file';
import type { Thread } from '../shared/thread/schema';
import { bigThread } from './undo';
import { benchThread, envList, envNum, percentile, sleep, type Figure } from './lib';

/** A small thread: one user message, a short system prompt. */
function smallThread(): Thread {
  return benchThread('00000000-0000-4000-8000-000000000002', 'bench thread', {
    systemPrompt: 'You are a careful assistant.',
    tools: [],
    messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
  });
}

interface Side {
  /** Per key, ms; the first key (after open) is separate. */
  latencies: number[];
  first: number;
  /** Bytes the edit log held when typing stopped (0 without a log). */
  logBytes: number;
  /** The save after typing stopped, ms (durable: also the marker with the document's hash, and the log's removal). */
  saveMs: number;
}

/** Type `keys` keys at `rate`/s into the thread in `file`; `editLogDir` makes the store durable. */
async function type(file: string, editLogDir: string | undefined, keys: number, rate: number): Promise<Side> {
  const store = new ThreadStore({ io: { load: (f) => loadThreadFile(f), save: saveThreadFile }, editLogDir });
  const { thread } = await store.open(file);
  const latencies: number[] = [];
  let version = 0;
  let text = thread.context.systemPrompt;
  const start = performance.now();
  for (let i = 0; i < keys; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    text += 'the quick brown fox '[i % 20];
    const t0 = performance.now();
    const r = await store.edit(thread.id, version, [{ op: 'replace', path: ['context', 'systemPrompt'], value: text }], 'client:1', `key-${i}`);
    latencies.push(performance.now() - t0);
    version = r.version;
  }
  let logBytes = 0;
  if (editLogDir) for (const n of fs.readdirSync(editLogDir)) if (n.endsWith('.jsonl')) logBytes += fs.statSync(path.join(editLogDir, n)).size;
  const s0 = performance.now();
  await store.flush();
  const saveMs = performance.now() - s0;
  await store.release(thread.id);
  const [first, ...rest] = latencies;
  return { latencies: rest, first, logBytes, saveMs };
}

export async function editAckBench(report: (f: Figure) => void): Promise<void> {
  const B = 'edits';
  const keys = Math.round(envNum('BENCH_EDIT_KEYS', 60));
  const rate = envNum('BENCH_EDIT_RATE', 10);
  const sizes = process.env.BENCH_EDIT_MB ? envList('BENCH_EDIT_MB', []) : [0, 50];
  const root = fs.mkdtempSync(path.join(process.env.BENCH_EDIT_DIR || os.tmpdir(), 'stepwise-bench-edits-'));
  try {
    for (const mb of sizes) {
      const thread = mb > 0 ? bigThread(mb) : smallThread();
      const text = serializeThread(thread);
      const label = mb > 0 ? `${(text.length / 1e6).toFixed(0)} MB thread` : `${text.length} B thread`;
      const dir = fs.mkdtempSync(path.join(root, 'run-'));
      const oldFile = path.join(dir, 'old.json');
      const newFile = path.join(dir, 'durable.json');
      fs.writeFileSync(oldFile, text);
      fs.writeFileSync(newFile, text);
      const old = await type(oldFile, undefined, keys, rate);
      const durable = await type(newFile, path.join(dir, 'edits'), keys, rate);
      const saved = JSON.parse(fs.readFileSync(newFile, 'utf8')) as Thread;
      const same = saved.context.systemPrompt === (JSON.parse(fs.readFileSync(oldFile, 'utf8')) as Thread).context.systemPrompt;

      const at = `${label}, ${rate} keys/s`;
      const p = (xs: number[], q: number) => percentile(xs, q);
      report({ bench: B, name: `${at}: ack latency p50`, value: p(durable.latencies, 50), unit: 'ms', baseline: { label: 'old path', value: p(old.latencies, 50) } });
      report({
        bench: B,
        name: `${at}: ack latency p99`,
        value: p(durable.latencies, 99),
        unit: 'ms',
        baseline: { label: 'old path', value: p(old.latencies, 99) },
        target: { text: `< ${(1000 / rate).toFixed(0)} ms (the time between keys: acks keep up)`, met: p(durable.latencies, 99) < 1000 / rate },
      });
      report({ bench: B, name: `${at}: latency added per ack p50`, value: p(durable.latencies, 50) - p(old.latencies, 50), unit: 'ms' });
      report({ bench: B, name: `${at}: latency added per ack p99`, value: p(durable.latencies, 99) - p(old.latencies, 99), unit: 'ms' });
      report({
        bench: B,
        name: `${at}: first key after open`,
        value: durable.first,
        unit: 'ms',
        baseline: { label: 'old path', value: old.first },
        note: 'starts the log: hashes the document the file holds',
      });
      report({
        bench: B,
        name: `${at}: bytes written per key before its ack`,
        value: durable.logBytes / keys,
        unit: 'B',
        baseline: { label: 'old path', value: 0 },
        note: `edit log ${durable.logBytes} B for ${keys} keys; a save per key would write ${text.length} B`,
      });
      report({ bench: B, name: `${label}: the save after typing stops`, value: durable.saveMs, unit: 'ms', baseline: { label: 'old path', value: old.saveMs }, note: 'durable: plus the saving marker (hash of the document) and the log removal' });
      report({ bench: B, name: `${at}: saved text equal on both sides`, value: same ? 1 : 0, unit: same ? '(yes)' : '(NO)', target: { text: 'equal', met: same } });
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
