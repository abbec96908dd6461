import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { wordDiff } from './word-diff';

const side = (parts: ReturnType<typeof wordDiff>, drop: 'added' | 'removed') => parts.filter((p) => p.op !== drop).map((p) => p.text).join('');

describe('wordDiff', () => {
  it('marks the changed words only', () => {
    expect(wordDiff('The answer is 4.', 'The answer is five.')).toEqual([
      { op: 'same', text: 'The answer is ' },
      { op: 'removed', text: '4.' },
      { op: 'added', text: 'five.' },
    ]);
  });

  it('keeps a moved word as a removal and an addition, and equal texts as one part', () => {
    expect(wordDiff('a b c ', 'b c a ').map((p) => p.op)).toEqual(['removed', 'same', 'added']);
    expect(wordDiff('same text', 'same text')).toEqual([{ op: 'same', text: 'same text' }]);
    expect(wordDiff('', '')).toEqual([]);
  });

  it('rebuilds both texts from its parts, for any texts (property)', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', ' ', '  ', '\n', 'dd'), { maxLength: 30 }).map((x) => x.join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const parts = wordDiff(a, b);
        expect(side(parts, 'added')).toBe(a);
        expect(side(parts, 'removed')).toBe(b);
      }),
    );
  });
});
