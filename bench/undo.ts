/**
 * Benchmark 4, undo history memory and speed: BENCH_UNDO_EDITS (default 2,000) edits on a
 * thread of BENCH_UNDO_MB (default 30) MB whose bulk is base64 image parts (user messages and
 * tool results), through the renderer's real {@link UndoHistory} with its default caps
 * (500 steps, 64 MiB of history-only images), each edit made with `produceWithPatches` as
 * ThreadSession.edit does. Edits are spaced 1 s apart so none merge: every edit is a step.
 * The edit mix: a word typed into a message (70 %), a tool call's argument changed (15 %), the
 * system prompt (10 %), a short message added or removed (5 %); no edit deletes an image.
 *
 * Memory kept by the history = heap with the history − heap after clearing it (same current
 * thread), after full GCs (`--expose-gc`), read just before and after the clear. Baselines, keeping as many steps as the history
 * keeps: a deep copy per step (`structuredClone`; measured on 3 copies and multiplied, since
 * 500 copies of 30 MB do not fit here) and whole-thread copy-on-write snapshots (every
 * Immer-produced state kept; measured for real).
 */
import { randomBytes } from 'node:crypto';
import { applyPatches, enablePatches, produce, produceWithPatches } from 'immer';
import type { Message } from '../shared/thread/messages';
import type { Thread } from '../shared/thread/schema';
import { UndoHistory } from './multi-window/json-path/undo';
import { benchThread, envNum, gc, percentile, rng, type Figure } from './lib';

enablePatches();

const WORDS = 'the agent reads the file then calls a tool with the path and waits for its result before it answers'.split(' ');
const words = (r: () => number, n: number) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');

/** A thread of about `mb` MB: 300 messages with texts of 200–3,000 characters, images filling the rest. */
export function bigThread(mb: number, seed = 1): Thread {
  const r = rng(seed);
  const imageBytes = 512 * 1024; // decoded; ≈ 683 KiB base64
  const images = Math.max(1, Math.round((mb * 1024 * 1024 * 0.97) / ((imageBytes * 4) / 3)));
  const messages: Message[] = [];
  for (let i = 0; i < 150; i++) {
    const user: Message = { id: `u${i}`, role: 'user', content: [{ type: 'text', text: words(r, 30 + Math.floor(r() * 450)) }] };
    messages.push(user);
    messages.push({
      id: `a${i}`,
      role: 'assistant',
      content: [{ type: 'text', text: words(r, 30 + Math.floor(r() * 450)) }],
      toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: { path: `/tmp/file-${i}.png`, query: words(r, 4) }, output: { content: [{ type: 'text', text: 'ok' }], isError: false } }],
    });
  }
  for (let j = 0; j < images; j++) {
    const data = randomBytes(imageBytes).toString('base64');
    const m = messages[(j * 7) % messages.length];
    if (m.role === 'user') m.content.push({ type: 'image', mimeType: 'image/png', data });
    else m.toolCalls![0].output!.content.push({ type: 'image', mimeType: 'image/png', data });
  }
  return benchThread('00000000-0000-4000-8000-000000000001', 'bench thread', { systemPrompt: words(r, 400), tools: [], messages });
}

type Edit = { recipe: (d: Thread) => void; key?: string };

/** Edit number `i` of the deterministic mix. */
function makeEdit(r: () => number, i: number): Edit {
  const x = r();
  const mi = Math.floor(r() * 300);
  const w = ` ${WORDS[i % WORDS.length]}`;
  if (x < 0.7)
    return {
      key: `messages/${mi}/content/0/text`,
      recipe: (d) => {
        const p = d.context.messages[mi].content[0];
        if (p.type === 'text') p.text += w;
      },
    };
  if (x < 0.85) {
    const ai = 2 * Math.floor(mi / 2) + 1;
    return {
      key: `messages/${ai}/toolCalls/0/arguments`,
      recipe: (d) => {
        const m = d.context.messages[ai];
        if (m.role === 'assistant' && m.toolCalls) m.toolCalls[0].arguments = { ...m.toolCalls[0].arguments, query: `q${i}` };
      },
    };
  }
  if (x < 0.95) return { key: 'systemPrompt', recipe: (d) => void (d.context.systemPrompt += w) };
  return {
    recipe: (d) => {
      const ms = d.context.messages;
      if (ms.length > 300) ms.pop();
      else ms.push({ id: `n${i}`, role: 'user', content: [{ type: 'text', text: `note ${i}` }] });
    },
  };
}

function heap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** The lowest of three {@link heap} readings: one reading is now and then a few hundred KiB high. */
function steadyHeap(): number {
  return Math.min(heap(), heap(), heap());
}

export async function undoBench(report: (f: Figure) => void): Promise<void> {
  const mb = envNum('BENCH_UNDO_MB', 30);
  const edits = Math.round(envNum('BENCH_UNDO_EDITS', 2000));
  const B = 'undo';

  const h0 = heap();
  const base = produce(bigThread(mb), () => {}); // frozen, as a thread atom's value is
  const threadHeap = heap() - h0;
  const threadJson = JSON.stringify(base).length;

  // The real history.
  let clock = 0;
  const history = new UndoHistory({ now: () => clock });
  let current = base;
  const r = rng(7);
  const editMs: number[] = [];
  const patchBytes: number[] = [];
  for (let i = 0; i < edits; i++) {
    clock += 1000;
    const e = makeEdit(r, i);
    const t0 = performance.now();
    const [next, forward, inverse] = produceWithPatches(current, e.recipe);
    history.record(forward, inverse, { key: e.key, current: next });
    editMs.push(performance.now() - t0);
    patchBytes.push(JSON.stringify(forward).length + JSON.stringify(inverse).length);
    current = next;
  }
  const kept = history.undoCount;
  const undoMs: number[] = [];
  const undone = Math.min(200, kept);
  let u = current;
  for (let i = 0; i < undone; i++) {
    const step = history.take('undo', u)!;
    const t0 = performance.now();
    u = applyPatches(u, step.patches);
    undoMs.push(performance.now() - t0);
  }
  for (let i = 0; i < undone; i++) u = applyPatches(u, history.take('redo', u)!.patches);
  // Measured right around clearing the history, nothing else in between (the undo timing above
  // compiles and allocates too); the lowest of three readings on each side.
  const hWith = steadyHeap();
  history.clear();
  const retained = Math.max(0, hWith - steadyHeap());
  void u;

  // Baseline: whole-thread copy-on-write snapshots (each Immer state kept), same edits.
  const states: Thread[] = [];
  let cur2 = base;
  const r2 = rng(7);
  for (let i = 0; i < edits; i++) {
    cur2 = produce(cur2, makeEdit(r2, i).recipe);
    states.push(cur2);
    if (states.length > kept) states.shift();
  }
  const hStates = heap();
  states.length = 0;
  const cowRetained = Math.max(0, hStates - heap());

  // Baseline: a deep copy per step; 3 copies measured, scaled to the steps kept.
  const copies: Thread[] = [];
  const cloneMs: number[] = [];
  const hc = heap();
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    copies.push(structuredClone(current));
    cloneMs.push(performance.now() - t0);
  }
  const perCopy = (heap() - hc) / copies.length;
  copies.length = 0;
  const deepRetained = perCopy * kept;

  const MiB = 1024 * 1024;
  report({ bench: B, name: `thread: ${(threadJson / MiB).toFixed(1)} MiB JSON, heap ${(threadHeap / MiB).toFixed(1)} MiB; steps kept`, value: kept, unit: `of ${edits} edits` });
  report({
    bench: B,
    name: `memory kept by the history (${kept} steps)`,
    value: retained / 1024,
    unit: 'KiB',
    baseline: { label: 'COW snapshots', value: cowRetained / 1024 },
    ratio: cowRetained / Math.max(1, retained),
    ratioLabel: 'less',
  });
  report({ bench: B, name: `memory kept, against a deep copy per step`, value: retained / 1024, unit: 'KiB', baseline: { label: 'structuredClone ×steps, extrapolated', value: deepRetained / 1024 }, ratio: deepRetained / Math.max(1, retained), ratioLabel: 'less' });
  const pct = (100 * retained) / threadHeap;
  report({ bench: B, name: 'history overhead, % of the thread (heap)', value: pct, unit: '%', baseline: { label: 'COW snapshots', value: (100 * cowRetained) / threadHeap }, target: { text: '< 1 % of the thread', met: pct < 1 } });
  const keptPatchBytes = patchBytes.slice(-kept).reduce((a, b) => a + b, 0);
  report({ bench: B, name: 'JSON size of the kept steps\' patches (mostly whole edited strings)', value: keptPatchBytes / 1024, unit: 'KiB', note: 'a replace patch carries the whole old and new string of the edited field' });
  report({ bench: B, name: `time per undo (applyPatches), p50 of ${undone}`, value: percentile(undoMs, 50), unit: 'ms', baseline: { label: 'COW: swap a reference', value: 0 } });
  report({ bench: B, name: `time per undo, p99`, value: percentile(undoMs, 99), unit: 'ms' });
  report({ bench: B, name: `time per edit (produceWithPatches + record), p50`, value: percentile(editMs, 50), unit: 'ms', baseline: { label: 'deep copy (structuredClone)', value: percentile(cloneMs, 50) }, ratio: percentile(cloneMs, 50) / percentile(editMs, 50), ratioLabel: 'faster' });
}
