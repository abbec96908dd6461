import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { paletteMatch, paletteWords } from './match';

describe('paletteMatch', () => {
  it('does not spread one typed word over several words of an item (issue 30 item 8)', () => {
    expect(paletteMatch('Switch to dark theme', 'share')).toBe(0);
    expect(paletteMatch('Switch to dark theme', 'dark')).toBeGreaterThan(0);
    expect(paletteMatch('Switch to dark theme', 'theme')).toBeGreaterThan(0);
  });

  it('finds a thread by abbreviated words, each from its first letter', () => {
    expect(paletteMatch('thread ReAct loop with tools', 'rct lp tls', ['ReAct loop with tools'])).toBeGreaterThan(0);
    expect(paletteMatch('thread ReAct loop with tools', 'eact')).toBe(0);
  });

  it('ranks an item whose first word the query starts with above one that only contains it', () => {
    const run = paletteMatch('Run all tools', 'run');
    const auto = paletteMatch('Auto-run tools: turn on', 'run');
    expect(auto).toBeGreaterThan(0);
    expect(run).toBeGreaterThan(auto);
    expect(paletteMatch('Run', 'run')).toBeGreaterThanOrEqual(run);
  });

  it('an empty query keeps every item; every score is within 0..1', () => {
    expect(paletteMatch('Settings', '  ')).toBe(1);
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.array(fc.string()), (value, search, keywords) => {
        const s = paletteMatch(value, search, keywords);
        return s >= 0 && s <= 1 && Number.isFinite(s);
      }),
    );
  });

  it('a query made of an item’s own words always matches it', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), { minLength: 1, maxLength: 5 }), (ws) => paletteMatch(ws.join(' '), ws.join(' ')) > 0),
    );
  });

  it('splits at punctuation and spaces, not inside a word', () => {
    expect(paletteWords('Auto-run tools: turn on')).toEqual(['auto', 'run', 'tools', 'turn', 'on']);
    expect(paletteWords('ReAct')).toEqual(['react']);
  });
});
