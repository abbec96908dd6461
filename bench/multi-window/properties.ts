/**
 * The correctness half of the multi-window benchmark: the properties of the two-windows tests
 * (renderer/src/state/two-windows-sync.test.ts), widened, run on the same fast-check cases
 * against today's path and the Yjs model. A case is a small thread, each window's keys and a
 * list of step choices (any interleaving of keystrokes and frames, as the tests' scheduler
 * makes them). A case that breaks a property is shrunk by fast-check and printed as the steps
 * it took, with every window's text after each.
 */
import fc from 'fast-check';
import type { Thread } from '../../shared/thread/schema';
import { Checker, clean, readable, uniqueBase, uniqueChar, type Verdict } from './check';
import { runChosen, settle, type Key } from './drive';
import type { Model } from './model';
import { Net } from './net';
import { benchThread } from '../lib';

/** Opens a model of `windows` windows on a thread. */
export type Open = (t: Thread, net: Net, windows: number) => Promise<Model> | Model;

/** What one case did: its verdict and the host's text of the judged field. */
export interface Outcome {
  verdict: Verdict;
  final: string;
}

/** A property: its cases, and how one case runs on a fresh model. */
export interface Property<C> {
  name: string;
  arb: fc.Arbitrary<C>;
  run(open: Open, c: C, trace?: string[]): Promise<Outcome>;
}

const LAST = uniqueBase(4, 100);

/** A small thread: message `first`, the typed `field` (holding `base`), a tool call, and `last`. */
export function smallThread(base: string): Thread {
  return benchThread('00000000-0000-4000-8000-00000000b002', 'two windows', {
    systemPrompt: 'You are careful.',
    tools: [],
    messages: [
      { id: 'first', role: 'user', content: [{ type: 'text', text: 'first' }] },
      { id: 'field', role: 'user', content: [{ type: 'text', text: base }] },
      { id: 'tool', role: 'assistant', content: [{ type: 'text', text: '' }], toolCalls: [{ id: 'c1', name: 'get-sum', arguments: { a: 2, b: 3 } }] },
      { id: 'last', role: 'user', content: [{ type: 'text', text: LAST }] },
    ],
  });
}

const choices = fc.array(fc.nat({ max: 999 }), { maxLength: 100 });
const typing = fc.array(fc.constantFrom<Key>('ins', 'ins', 'del'), { minLength: 1, maxLength: 8 });
const ins = (n: number): { key: Key }[] => Array.from({ length: n }, () => ({ key: 'ins' }));

const outcome = (m: Model, check: Checker, verdict: Verdict, field = 'field'): Outcome => ({ verdict, final: readable(m.hostTextOf(field)) });

/** The two-windows test's first property: both type at the end of one text, any interleaving. */
export const typingAtTheEnd: Property<{ a: number; b: number; choices: number[] }> = {
  name: 'both type at the end of one text (the two-windows test)',
  arb: fc.record({ a: fc.integer({ min: 1, max: 8 }), b: fc.integer({ min: 1, max: 8 }), choices }),
  async run(open, c, trace) {
    const base = uniqueBase(8);
    const m = await open(smallThread(base), new Net(0), 2);
    const check = new Checker(m, 'field', base);
    await runChosen(m, { fields: ['field', 'field'], starts: [0, 0], mode: 'end', keys: [ins(c.a), ins(c.b)], choices: c.choices, char: uniqueChar }, check, trace);
    await m.close();
    return outcome(m, check, check.verdict());
  },
};

type CursorCase = { base: number; starts: [number, number]; a: Key[]; b: Key[]; choices: number[] };
const cursorCase: fc.Arbitrary<CursorCase> = fc
  .record({ base: fc.integer({ min: 0, max: 10 }), start: fc.nat({ max: 10 }), apart: fc.integer({ min: -2, max: 2 }), a: typing, b: typing, choices })
  .map(({ start, apart, ...c }) => ({ ...c, starts: [start, Math.max(0, start + apart)] as [number, number] }));

async function typeAtCursors(open: Open, c: CursorCase, trace?: string[]): Promise<{ m: Model; check: Checker }> {
  const base = uniqueBase(c.base);
  const m = await open(smallThread(base), new Net(0), 2);
  const check = new Checker(m, 'field', base);
  const keys = [c.a, c.b].map((ks) => ks.map((key) => ({ key })));
  await runChosen(m, { fields: ['field', 'field'], starts: c.starts, mode: 'cursor', keys, choices: c.choices, char: uniqueChar }, check, trace);
  return { m, check };
}

/** Widened: each window types and presses Backspace at its own cursor, the cursors close together. */
export const typingAtCursors: Property<CursorCase> = {
  name: 'both type and delete at nearby cursors in one text',
  arb: cursorCase,
  async run(open, c, trace) {
    const { m, check } = await typeAtCursors(open, c, trace);
    await m.close();
    return outcome(m, check, check.verdict());
  },
};

/** Then window 0 undoes every step it has: only its own typing goes, its deletes come back. */
export const undoOwnTyping: Property<CursorCase> = {
  name: "then one window undoes all: only its own edits go",
  arb: cursorCase,
  async run(open, c, trace) {
    const { m, check } = await typeAtCursors(open, c, trace);
    for (let i = 0; i < 64 && m.undo(0); i++) {
      await settle(m, undefined, check);
      trace?.push(`window 0 undoes → host ${readable(m.hostTextOf('field'))}`);
    }
    await settle(m, undefined, check);
    await m.close();
    return outcome(m, check, check.verdict(check.afterUndo(0)));
  },
};

/**
 * Window 1 types into a message while window 0 deletes it; window 0 then undoes the delete.
 * Every key window 1 typed should be in the message that comes back ("lost" otherwise); the
 * message must stay deleted until the undo ("resurrected" otherwise).
 */
export const typingIntoDeleted: Property<{ b: number; choices: number[] }> = {
  name: 'one deletes the message the other types in, then undoes',
  arb: fc.record({ b: fc.integer({ min: 1, max: 6 }), choices }),
  async run(open, c, trace) {
    const base = uniqueBase(6);
    const m = await open(smallThread(base), new Net(0), 2);
    const check = new Checker(m, 'field', base);
    await runChosen(m, { fields: ['field', 'field'], starts: [0, 0], mode: 'end', keys: [[], ins(c.b)], deletes: { w: 0, id: 'field' }, choices: c.choices, char: uniqueChar }, check, trace);
    const back = m.hostTextOf('field') !== undefined;
    const undone = m.undo(0);
    await settle(m, undefined, check);
    trace?.push(`window 0 undoes the delete${undone ? '' : ' (refused)'} → host ${readable(m.hostTextOf('field'))}`);
    await m.close();
    const verdict = check.verdict();
    if (back) verdict.resurrected++;
    if (!undone) verdict.errors.push('the undo of the delete was refused');
    return outcome(m, check, verdict);
  },
};

/** The two-windows test's delete property: window 0 deletes an earlier message while window 1 types into a later one, then undoes. */
export const typingBesideDeleted: Property<{ b: number; choices: number[] }> = {
  name: 'one deletes an earlier message while the other types (the two-windows test)',
  arb: fc.record({ b: fc.integer({ min: 1, max: 6 }), choices }),
  async run(open, c, trace) {
    const m = await open(smallThread(uniqueBase(6)), new Net(0), 2);
    const check = new Checker(m, 'last', LAST);
    await runChosen(m, { fields: ['first', 'last'], starts: [0, 0], mode: 'end', keys: [[], ins(c.b)], deletes: { w: 0, id: 'first' }, choices: c.choices, char: uniqueChar }, check, trace);
    const first = m.undo(0);
    await settle(m, undefined, check);
    await m.close();
    const verdict = check.verdict();
    if (!first || m.hostTextOf('first') !== 'first') verdict.errors.push('the undo did not bring the deleted message back');
    return outcome(m, check, verdict, 'last');
  },
};

export const PROPERTIES = [typingAtTheEnd, typingAtCursors, undoOwnTyping, typingIntoDeleted, typingBesideDeleted] as Property<unknown>[];

/** How a property fared on one model: cases breaking it, by kind, and a shrunk counterexample. */
export interface Tally {
  runs: number;
  failed: number;
  kinds: Record<string, number>;
  counterexample?: string[];
}

/** Run `runs` cases (seeded) of `p` on `open`; shrink the first failure and trace it. */
export async function tally<C>(p: Property<C>, open: Open, runs: number, seed: number): Promise<Tally> {
  const t: Tally = { runs, failed: 0, kinds: {} };
  for (const c of fc.sample(p.arb, { seed, numRuns: runs })) {
    const { verdict: v } = await p.run(open, c);
    if (clean(v)) continue;
    t.failed++;
    for (const [k, n] of Object.entries({ diverged: +v.diverged, lost: v.lost, resurrected: v.resurrected, duplicated: v.duplicated, reordered: v.reordered, error: v.errors.length })) if (n) t.kinds[k] = (t.kinds[k] ?? 0) + 1;
  }
  if (t.failed === 0) return t;
  const found = await fc.check(fc.asyncProperty(p.arb, async (c) => clean((await p.run(open, c)).verdict)), { seed, numRuns: runs });
  if (!found.failed || !found.counterexample) return t;
  const trace: string[] = [];
  const [c] = found.counterexample;
  const o = await p.run(open, c, trace);
  const v = o.verdict;
  trace.push(`end: host ${o.final}; lost ${readable(v.missing.join(''))}, resurrected ${readable(v.extra.join(''))}, reordered ${v.reordered}, diverged ${v.diverged}${v.errors.length ? `, ${v.errors.join('; ')}` : ''}`);
  t.counterexample = trace;
  return t;
}
