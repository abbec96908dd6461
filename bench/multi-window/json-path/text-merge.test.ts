import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeJson, mergeText } from './text-merge';

/** `s` with `insert` put at `at` after removing `remove` characters there. */
const edit = (s: string, at: number, remove: number, insert: string) => s.slice(0, at) + insert + s.slice(at + remove);

describe('mergeText', () => {
  it('keeps both windows\' typing at the end of the same field, the other window\'s first', () => {
    expect(mergeText('Hello', 'Hello P0', 'Hello Q0')).toBe('Hello Q0 P0');
  });

  it('keeps edits at different places of the text', () => {
    expect(mergeText('one two three', 'ONE two three', 'one two THREE')).toBe('ONE two THREE');
    expect(mergeText('one two three', 'one two', 'the one two three')).toBe('the one two');
  });

  it('takes one side when the other did not change, and agrees with itself', () => {
    expect(mergeText('a', 'a', 'b')).toBe('b');
    expect(mergeText('a', 'b', 'a')).toBe('b');
    expect(mergeText('a', 'b', 'b')).toBe('b');
  });

  it('overlapping edits: this window\'s text wins over the region both changed, theirs stays around it', () => {
    // base "abcdef"; mine replaces "cd" by "X"; theirs replaces "de" by "Y": both touched "d".
    expect(mergeText('abcdef', 'abXef', 'abcYf')).toBe('abXef');
    // base "abcdefgh"; mine replaces "cde" by "-"; theirs changes "ef" and "h", which is one
    // region "efgh" overlapping mine's: mine's text covers the union "cdefgh".
    expect(mergeText('abcdefgh', 'ab-fgh', 'abcd+gH')).toBe('ab-fgh');
  });

  it('property: edits in disjoint regions both survive, in either order of arrival', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        fc.nat({ max: 5 }),
        fc.nat({ max: 5 }),
        fc.string({ maxLength: 6 }),
        fc.string({ maxLength: 6 }),
        (base, p, q, rm1, rm2, ins1, ins2) => {
          // Two regions of base, the first strictly before the second.
          const a = p % (base.length + 1);
          const aEnd = Math.min(base.length, a + rm1);
          const b = aEnd + 1 + (q % (base.length + 1));
          if (b > base.length) return;
          // Disjoint only if no inserted text can slide across the gap between the regions: "2"
          // inserted before the gap "2" diffs the same as after it, and then the regions touch.
          // That ambiguity is inherent to merging by diff (docs/architecture.md#multi-window-editing).
          const gap = base.slice(aEnd, b);
          if ([...ins1, ...ins2].some((ch) => gap.includes(ch))) return;
          const bEnd = Math.min(base.length, b + rm2);
          const first = edit(base, a, aEnd - a, ins1);
          const second = edit(base, b, bEnd - b, ins2);
          const both = edit(edit(base, b, bEnd - b, ins2), a, aEnd - a, ins1);
          expect(mergeText(base, first, second)).toBe(both);
          expect(mergeText(base, second, first)).toBe(both);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: a side that changed nothing yields the other; never longer than both sides together', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (base, mine, theirs) => {
        const out = mergeText(base, mine, theirs);
        expect(out.length).toBeLessThanOrEqual(mine.length + theirs.length);
        if (mine === base) expect(out).toBe(theirs);
        if (theirs === base) expect(out).toBe(mine);
      }),
      { numRuns: 500 },
    );
  });
});

describe('mergeJson', () => {
  it('merges objects key by key: each side\'s changed keys survive, texts both changed merge', () => {
    expect(mergeJson({ a: 5, b: 6 }, { a: 51111, b: 6 }, { a: 5, b: 62222 })).toEqual({ a: 51111, b: 62222 });
    expect(mergeJson({ q: 'weather', n: 1 }, { q: 'weather in Paris', n: 1 }, { q: 'the weather', n: 2 })).toEqual({ q: 'the weather in Paris', n: 2 });
    // A key added on one side and one removed on the other.
    expect(mergeJson({ a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, { a: 1 })).toEqual({ a: 1, c: 3 });
  });

  it('takes mine where both changed the same non-text value, and for things with different ids', () => {
    expect(mergeJson({ n: 1 }, { n: 2 }, { n: 3 })).toEqual({ n: 2 });
    expect(mergeJson([1], [1, 2], [1, 3])).toEqual([1, 2]);
    expect(mergeJson({ id: 'm1', text: 'x' }, { id: 'm2', text: 'y' }, { id: 'm1', text: 'xz' })).toEqual({ id: 'm2', text: 'y' });
  });
});
