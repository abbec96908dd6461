import { describe, expect, it } from 'vitest';
import { skippedLinesWarning } from './eval-output';

describe('skippedLinesWarning', () => {
  it('names the file and the lines, at most five of them', () => {
    expect(skippedLinesWarning('/b/results.jsonl', [4])).toBe('stepwise eval: /b/results.jsonl: line 4 could not be read and was skipped; a case with no readable result ran again');
    expect(skippedLinesWarning('/b/results.jsonl', [1, 2, 3, 5, 8, 13, 21])).toBe(
      'stepwise eval: /b/results.jsonl: lines 1, 2, 3, 5, 8 and 2 more could not be read and were skipped; a case with no readable result ran again',
    );
  });
});
