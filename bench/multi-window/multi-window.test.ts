/**
 * The multi-window benchmark's harness (bench/multi-window/), whose counts decide
 * docs/architecture.md#multi-window-editing: it reproduces what the two-windows tests
 * (renderer/src/state/two-windows-sync.test.ts) establish for today's path, its Yjs model keeps
 * the widened properties for any interleaving, and its checker catches a character that today's
 * three-way merge brings back after a window deleted it (the counterexample the document cites).
 * No timing here: speed and size are measured by `yarn bench multi-window`.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Checker, clean, readable, uniqueBase, uniqueChar } from './check';
import { runChosen } from './drive';
import { Net } from './net';
import { smallThread, typingAtCursors, typingAtTheEnd, typingBesideDeleted, undoOwnTyping, type Open, type Property } from './properties';
import { openToday } from './today';
import { openYjs } from './yjs';

const holds = <C>(p: Property<C>, open: Open, numRuns: number) =>
  fc.assert(
    fc.asyncProperty(p.arb, async (c) => {
      const { verdict } = await p.run(open, c);
      expect(verdict).toMatchObject({ diverged: false, lost: 0, resurrected: 0, duplicated: 0, reordered: 0, errors: [] });
    }),
    { numRuns },
  );

describe('multi-window harness, today\'s path', () => {
  it('keeps the two-windows tests\' properties: typing at the end, and beside a deleted message', async () => {
    await holds(typingAtTheEnd, openToday, 150);
    await holds(typingBesideDeleted, openToday, 100);
  });

  it('a deleted character comes back: window 0 types A, deletes it and a, while window 1 deletes a', async () => {
    // base "a"; both cursors after it. The steps, by label; then whatever is first.
    const script = ['window 0', 'window 0', 'window 0', 'window 1', 'frame window 0 → host', 'frame window 1 → host', 'frame host → window 0', 'frame host → window 0', 'frame window 0 → host'];
    const run = async (open: Open) => {
      const base = uniqueBase(1);
      const m = await open(smallThread(base), new Net(0), 2);
      const check = new Checker(m, 'field', base);
      const keys = [[{ key: 'ins' as const }, { key: 'del' as const }, { key: 'del' as const }], [{ key: 'del' as const }]];
      await runChosen(m, { fields: ['field', 'field'], starts: [1, 1], mode: 'cursor', keys, choices: [], char: uniqueChar, pick: (labels, i) => labels.findIndex((l) => i < script.length && l.startsWith(script[i])) }, check);
      await m.close();
      return { verdict: check.verdict(), final: readable(m.hostTextOf('field')) };
    };
    const today = await run(openToday);
    // Window 0 typed A and deleted it; window 1 never saw A. Both deleted a: the text should be empty.
    expect(today.final).toBe('"A"');
    expect(today.verdict.resurrected).toBe(1);
    const yjs = await run(openYjs);
    expect(yjs.final).toBe('""');
    expect(clean(yjs.verdict)).toBe(true);
  });
});

/** Both windows type three characters at one place before any frame moves. */
async function sameSpot(open: Open): Promise<string> {
  const base = uniqueBase(2);
  const m = await open(smallThread(base), new Net(0), 2);
  const keys = [0, 1].map(() => [{ key: 'ins' as const }, { key: 'ins' as const }, { key: 'ins' as const }]);
  const pick = (labels: string[]) => labels.findIndex((l) => l.startsWith('window'));
  await runChosen(m, { fields: ['field', 'field'], starts: [1, 1], mode: 'cursor', keys, choices: [], char: uniqueChar, pick });
  await m.close();
  return readable(m.hostTextOf('field'));
}

describe('concurrent typing at one place', () => {
  it("keeps each window's characters together, on both sides", async () => {
    expect(await sameSpot(openToday)).toMatch(/^"a(ABC012|012ABC)b"$/);
    expect(await sameSpot(openYjs)).toBe('"aABC012b"'); // the lower client id first
  });
});

describe('multi-window harness, Yjs model', () => {
  it('converges and keeps every keystroke for any interleaving, at the end or at nearby cursors with Backspace', async () => {
    await holds(typingAtTheEnd, openYjs, 100);
    await holds(typingAtCursors, openYjs, 150);
  });

  it('undo in one window takes out only its own typing and brings back only its own deletes', async () => {
    await holds(undoOwnTyping, openYjs, 150);
  });

  it('keeps the keys typed into a later message when an earlier one is deleted and the delete undone', async () => {
    await holds(typingBesideDeleted, openYjs, 100);
  });
});
