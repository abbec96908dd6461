import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { terminalField, terminalText } from './terminal-text';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

describe('terminal text', () => {
  it('shows control characters as visible escapes', () => {
    expect(terminalField('c1 [base] 5 ms\r\u001b[2KPASS c1')).toBe('c1 [base] 5 ms\\r\\u001b[2KPASS c1');
    expect(terminalField('a\nb\tc\u009bd\u007f')).toBe('a\\nb\\tc\\u009bd\\u007f');
    expect(terminalText('line 1: not JSON (\u001b[31m)\nline 2\tx')).toBe('line 1: not JSON (\\u001b[31m)\nline 2\tx');
    expect(terminalField('plain text, ünïcödé ✓')).toBe('plain text, ünïcödé ✓');
  });

  it('leaves no control character but line feeds and tabs, and changes nothing else', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(CONTROL.test(terminalField(s))).toBe(false);
        // eslint-disable-next-line no-control-regex
        expect(/[^\n\t]/.test(terminalText(s).replace(/[^\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ''))).toBe(false);
        expect(terminalField(terminalField(s))).toBe(terminalField(s));
        if (!CONTROL.test(s)) expect(terminalField(s)).toBe(s);
      }),
    );
  });
});
