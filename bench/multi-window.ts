/**
 * Benchmark 6, multi-window editing (docs/architecture.md#multi-window-editing): today's edit
 * path (versioned Immer patches, rebase and three-way text merge in the renderer, the host's
 * ThreadStore; multi-window/today.ts) against a Yjs model of the same product (a Y.Doc per
 * thread, Y.Text per typed field, Yjs updates relayed by the host, Y.UndoManager per window;
 * multi-window/yjs.ts), on the same scripted sessions. Today's path is the baseline of every
 * figure; ratios are baseline / Yjs, measured in the same run.
 *
 * Sessions, on a thread of BENCH_MW_MESSAGES (1,000) messages whose middle message holds
 * BENCH_MW_FIELD (2,000) characters, over a link of BENCH_MW_LATENCY ms one way (list,
 * default 1 and 40: the desktop app, a web host over a network):
 * - typing: two windows type into that message at 10 keys/s each (±30 ms), starting a few
 *   characters apart: 80 % characters, 15 % Backspace, 5 % a click within 6 characters of the
 *   other window's cursor; BENCH_MW_KEYS (10,000) keystrokes in all. Measured: bytes on the
 *   wire per keystroke (the web host's JSON frames), CPU per keystroke (typing window, the
 *   windows applying the host's frames, the host), heap growth (host + both windows, after GC)
 *   per 10,000 keystrokes. The same session with BENCH_MW_CHECK_KEYS (2,000) keystrokes of
 *   unique characters is checked: lost, resurrected, duplicated or reordered characters.
 * - a message deleted in one window while the other types in it, the delete undone 1.5 s
 *   later, swept over 7 delete times: keys typed into it that the undo does not bring back.
 * - the properties of multi-window/properties.ts, BENCH_MW_RUNS (300) fast-check cases each,
 *   on both: failing cases and a shrunk counterexample, printed step by step.
 */
import * as Y from 'yjs';
import type { Thread } from '../shared/thread/schema';
import { validateThread } from '../shared/thread/validate';
import { envList, envNum, gc, rng, type Figure } from './lib';
import { Checker, clean, uniqueBase, uniqueChar } from './multi-window/check';
import { runTimed, type Session, type Spent, type TimedKey, type TimedAction } from './multi-window/drive';
import { bigThread, filler, type Model } from './multi-window/model';
import { Net, utf8 } from './multi-window/net';
import { PROPERTIES, tally, type Open } from './multi-window/properties';
import { openToday } from './multi-window/today';
import { openYjs } from './multi-window/yjs';
import { threadToY, yToThread } from './multi-window/y-thread';

const B = 'multi-win';
const TYPED = 'the agent reads the file and calls a tool ';
const asciiChar = (w: number, k: number) => TYPED[(k + w * 11) % TYPED.length];

/** Two windows' keystrokes, `keystrokes` in all, 10 per second each. */
function typingKeys(keystrokes: number, seed: number): TimedKey[] {
  const r = rng(seed);
  const keys: TimedKey[] = [];
  for (let w = 0; w < 2; w++) {
    for (let k = 0, n = 0; n < Math.ceil(keystrokes / 2); k++) {
      const x = r();
      const key = x < 0.8 ? 'ins' : x < 0.95 ? 'del' : 'jump';
      if (key !== 'jump') n++;
      keys.push({ w, at: 1000 + w * 50 + k * 100 + Math.round((r() - 0.5) * 60), key, offset: Math.round(r() * 12) - 6 });
    }
  }
  return keys.sort((a, b) => a.at - b.at || a.w - b.w);
}

/** Heap in use after full GCs, measured after a timer turn: objects a job holds alive (WeakRef targets) are let go first. */
const heap = async (): Promise<number> => {
  await new Promise((r) => setTimeout(r, 0));
  gc();
  return process.memoryUsage().heapUsed;
};

interface Measured {
  spent: Spent;
  bytes: number;
  payload: number;
  frames: number;
  heapOpen: number;
  heapGrowth: number;
  /** Size of the host's document before and after: JSON (today) or the encoded Yjs state. */
  docBefore: number;
  docAfter: number;
}

const docSize = (m: Model & { hostDoc?: Y.Doc }) => (m.hostDoc ? Y.encodeStateAsUpdate(m.hostDoc).length : utf8(m.hostThreadJson()));

/** One typing session, measured. */
async function measure(open: Open, thread: Thread, latency: number, keys: TimedKey[], mid: number): Promise<Measured> {
  const h0 = await heap();
  const net = new Net(latency);
  const m = await open(thread, net, 2);
  const heapOpen = (await heap()) - h0;
  const docBefore = docSize(m);
  const session: Session = { fields: ['field', 'field'], starts: [mid, mid + 3], mode: 'cursor', keys, char: asciiChar };
  const h1 = await heap();
  const spent = await runTimed(m, session);
  const heapGrowth = (await heap()) - h1;
  const t = net.traffic;
  const out = { spent, bytes: t.upBytes + t.downBytes, payload: t.payloadBytes, frames: t.upFrames + t.downFrames, heapOpen, heapGrowth, docBefore, docAfter: docSize(m) };
  await m.close();
  return out;
}

/** The same session with unique characters, checked. */
async function checked(open: Open, messages: number, fieldLen: number, latency: number, keys: TimedKey[]) {
  const base = uniqueBase(fieldLen);
  const m = await open(bigThread(messages, base), new Net(latency), 2);
  const check = new Checker(m, 'field', base);
  await runTimed(m, { fields: ['field', 'field'], starts: [fieldLen >> 1, (fieldLen >> 1) + 3], mode: 'cursor', keys, char: uniqueChar }, check);
  await m.close();
  return check.verdict();
}

/** Window 1 types 40 keys at the end of the message; window 0 deletes it at `at` ms and undoes 1.5 s later. */
async function deletedWhileTyping(open: Open, messages: number, latency: number, at: number) {
  const base = uniqueBase(200);
  const m = await open(bigThread(messages, base), new Net(latency), 2);
  const check = new Checker(m, 'field', base);
  const keys: TimedKey[] = Array.from({ length: 40 }, (_, k) => ({ w: 1, at: 200 + k * 100, key: 'ins' }));
  const actions: TimedAction[] = [
    { at, w: 0, kind: 'delete', id: 'field' },
    { at: at + 1500, w: 0, kind: 'undo' },
  ];
  const spent = await runTimed(m, { fields: ['field', 'field'], starts: [0, 0], mode: 'end', keys, actions, char: uniqueChar }, check);
  await m.close();
  return { verdict: check.verdict(), typed: spent.keystrokes };
}

const ratio = (base: number, v: number) => (v === 0 ? (base === 0 ? 1 : Infinity) : base / v);

export async function multiWindowBench(report: (f: Figure) => void): Promise<void> {
  const keystrokes = Math.round(envNum('BENCH_MW_KEYS', 10_000));
  const messages = Math.round(envNum('BENCH_MW_MESSAGES', 1000));
  const fieldLen = Math.round(envNum('BENCH_MW_FIELD', 2000));
  const checkKeys = Math.round(envNum('BENCH_MW_CHECK_KEYS', 2000));
  const runs = Math.round(envNum('BENCH_MW_RUNS', 300));
  const latencies = envList('BENCH_MW_LATENCY', [1, 40]);
  const thread = bigThread(messages, filler(fieldLen));
  const mid = fieldLen >> 1;
  const keys = typingKeys(keystrokes, 11);
  const both = (name: string, unit: string, today: number, yjs: number, label = 'less', target?: Figure['target']) =>
    report({ bench: B, name, value: yjs, unit, baseline: { label: 'today', value: today }, ratio: ratio(today, yjs), ratioLabel: label, target });

  // Warm up both paths (compiled code would otherwise count as the first model's heap).
  for (const open of [openToday, openYjs]) await measure(open, bigThread(20, filler(200)), 1, typingKeys(200, 3), 100);

  // Opening the thread in a window.
  const host = new Y.Doc();
  threadToY(thread, host);
  const openToday_ = utf8(JSON.stringify({ id: 1, result: { thread, version: 0, path: 'thread.json' } }));
  const openYjs_ = utf8(JSON.stringify({ id: 1, result: { state: Buffer.from(Y.encodeStateAsUpdate(host)).toString('base64') } }));
  both(`open a ${messages}-message thread: bytes to the window`, 'KiB', openToday_ / 1024, openYjs_ / 1024);

  for (const latency of latencies) {
    const L = `${latency} ms link`;
    const t = await measure(openToday, thread, latency, keys, mid);
    const y = await measure(openYjs, thread, latency, keys, mid);
    const per = (x: Measured, v: number) => v / x.spent.keystrokes;
    both(`${L}: wire bytes per keystroke (JSON frames, both ways)`, 'B', per(t, t.bytes), per(y, y.bytes), 'less');
    both(`${L}: edit payload per keystroke (patches | update)`, 'B', per(t, t.payload), per(y, y.payload), 'less');
    both(`${L}: frames per keystroke`, '', per(t, t.frames), per(y, y.frames), 'fewer');
    const cpu = (x: Measured) => x.spent.typingMs + x.spent.windowMs + x.spent.hostMs;
    both(`${L}: CPU per keystroke, windows + host`, 'ms', per(t, cpu(t)), per(y, cpu(y)), 'less');
    both(`${L}: CPU per keystroke in the typing window`, 'ms', per(t, t.spent.typingMs), per(y, y.spent.typingMs), 'less');
    both(`${L}: CPU per keystroke in the other windows' updates`, 'ms', per(t, t.spent.windowMs), per(y, y.spent.windowMs), 'less');
    both(`${L}: CPU per keystroke in the host`, 'ms', per(t, t.spent.hostMs), per(y, y.spent.hostMs), 'less');
    const growth = (x: Measured) => (x.heapGrowth / 1024) * (10_000 / x.spent.keystrokes);
    both(`${L}: heap growth per 10,000 keystrokes (host + 2 windows)`, 'KiB', growth(t), growth(y), 'less');
    if (latency === latencies[0]) {
      both(`heap of the open thread (host + 2 windows)`, 'MiB', t.heapOpen / 2 ** 20, y.heapOpen / 2 ** 20, 'less');
      both(`host document after ${t.spent.keystrokes} keystrokes (JSON | Yjs state), growth`, 'KiB', (t.docAfter - t.docBefore) / 1024, (y.docAfter - y.docBefore) / 1024, 'less');
    }
    const ct = await checked(openToday, messages, fieldLen, latency, typingKeys(checkKeys, 12));
    const cy = await checked(openYjs, messages, fieldLen, latency, typingKeys(checkKeys, 12));
    const bad = (v: typeof ct) => v.lost + v.resurrected + v.duplicated + v.reordered + (v.diverged ? 1 : 0);
    both(`${L}: ${checkKeys} checked keystrokes: characters lost/resurrected/reordered`, '', bad(ct), bad(cy), 'fewer', { text: 'Yjs: none', met: bad(cy) === 0 });
    console.log(`${B.padEnd(10)}   today: lost ${ct.lost}, resurrected ${ct.resurrected}, duplicated ${ct.duplicated}, reordered ${ct.reordered}, diverged ${ct.diverged}; yjs: lost ${cy.lost}, resurrected ${cy.resurrected}, duplicated ${cy.duplicated}, reordered ${cy.reordered}, diverged ${cy.diverged}`);

    const sweep = { today: { lost: 0, typed: 0, other: [] as string[] }, yjs: { lost: 0, typed: 0, other: [] as string[] } };
    for (let at = 500; at <= 3500; at += 500) {
      for (const [name, open] of [['today', openToday], ['yjs', openYjs]] as const) {
        const { verdict: v, typed } = await deletedWhileTyping(open, messages, latency, at);
        sweep[name].lost += v.lost;
        sweep[name].typed += typed;
        if (!clean({ ...v, lost: 0, missing: [] })) sweep[name].other.push(`delete at ${at} ms: ${JSON.stringify({ ...v, missing: undefined, extra: undefined })}`);
      }
    }
    both(`${L}: message deleted while typed in, undone: keys lost`, `of ${sweep.today.typed} | ${sweep.yjs.typed}`, sweep.today.lost, sweep.yjs.lost, 'fewer');
    for (const [name, s] of Object.entries(sweep)) for (const o of s.other) console.log(`${B.padEnd(10)}   ${name}: ${o}`);
  }

  // The host's save: Yjs must turn its document into JSON (and validate it) first.
  const saveMs = (f: () => unknown) => {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      f();
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[3];
  };
  const save = saveMs(() => JSON.stringify(thread));
  const ySave = saveMs(() => {
    const t = yToThread(host);
    if (!validateThread(t).ok) throw new Error('the Yjs document is not a valid thread');
    return JSON.stringify(t);
  });
  both('host save of the thread (Yjs: to JSON and validate first), median', 'ms', save, ySave, 'less');

  for (const p of PROPERTIES) {
    const t = await tally(p, openToday, runs, 7);
    const y = await tally(p, openYjs, runs, 7);
    both(`property: ${p.name}: failing cases of ${runs}`, '', t.failed, y.failed, 'fewer', { text: 'Yjs: no more than today', met: y.failed <= t.failed });
    for (const [name, r] of [['today', t], ['yjs', y]] as const) {
      if (!r.failed) continue;
      console.log(`${B.padEnd(10)}   ${name}: ${Object.entries(r.kinds).map(([k, n]) => `${k} in ${n}`).join(', ')}; shrunk counterexample:`);
      for (const line of r.counterexample ?? []) console.log(`${B.padEnd(10)}     ${line}`);
    }
  }
}
