import { describe, expect, it } from 'vitest';
import { walkDepthFirst } from './depth-first';

describe('walkDepthFirst', () => {
  const kids: Record<string, string[]> = { a: ['b', 'c'], b: ['d'], c: [], d: [] };
  const seen = (roots: string[], children: (n: string) => string[] | undefined) => {
    const out: string[] = [];
    walkDepthFirst(roots, children, (n, level, i, sibs) => out.push(`${n}@${level}:${i}/${sibs.length}`));
    return out;
  };

  it('visits a node, then its children subtrees in order, with level, position and siblings', () => {
    expect(seen(['a', 'e'], (n) => kids[n])).toEqual(['a@1:0/2', 'b@2:0/2', 'd@3:0/1', 'c@2:1/2', 'e@1:1/2']);
  });

  it('stops where children gives none (a folded node)', () => {
    expect(seen(['a'], (n) => (n === 'b' ? undefined : kids[n]))).toEqual(['a@1:0/1', 'b@2:0/2', 'c@2:1/2']);
  });

  it('walks a chain nested 100,000 levels', () => {
    let last = '';
    let deepest = 0;
    walkDepthFirst([0], (n) => (n < 99_999 ? [n + 1] : undefined), (n, level) => {
      last = String(n);
      deepest = Math.max(deepest, level);
    });
    expect([last, deepest]).toEqual(['99999', 100_000]);
  });
});
