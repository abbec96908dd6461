import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse as partialJson } from 'partial-json';
import { PartialJsonStream, type PartialJsonResult } from './partial-json-stream';
import { collapseEmptyArrays, jsonDocument, splitText } from '../../tests/support/json-documents';

/** What partial-json says about `text`, in PartialJsonStream's terms (a throw is "incomplete"). */
function oracle(text: string): PartialJsonResult {
  try {
    return { ok: true, value: partialJson(text) };
  } catch {
    return { ok: false, reason: 'incomplete' };
  }
}

/** Feeds `parts` one by one and checks the value after each against partial-json on the prefix. */
function checkEveryPrefix(parts: string[]): PartialJsonStream {
  const p = new PartialJsonStream();
  let text = '';
  for (const part of parts) {
    p.push(part);
    text += part;
    // partial-json loses the rest of a container after `[ ]` (see the module comment); the
    // oracle reads such arrays as `[]`, which partial-json gets right.
    expect(p.value(), `after ${JSON.stringify(text)}`).toEqual(oracle(collapseEmptyArrays(text)));
  }
  return p;
}

describe('PartialJsonStream', () => {
  it('gives what partial-json gives on every prefix of valid JSON, whatever the deltas', () => {
    fc.assert(
      fc.property(jsonDocument, fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1 }), fc.boolean(), (doc, sizes, random) => {
        const parts = splitText(doc.text, random ? sizes.map((s) => s * s * 3) : sizes);
        const p = checkEveryPrefix(parts);
        // The whole text is valid JSON: its value is JSON.parse's. Not for a "__proto__" key:
        // JSON.parse makes it an own property, partial-json (the oracle, checked above on every
        // prefix) assigns it (seed -2111357316 drew one).
        if (!doc.text.includes('"__proto__"')) expect(p.value()).toEqual({ ok: true, value: JSON.parse(doc.text) });
      }),
      { numRuns: 400 },
    );
  });

  it('gives what partial-json gives on prefixes cut in escapes, numbers and literals', () => {
    const texts = [
      '{"a":"x\\u00e9\\ud83d\\ude00\\"\\\\y", "b": -12.5e+3, "c": [true, false, null, 0, -0, 1E2, 2e-1]}',
      '  ["sp  ace  ", "\\u0020", "a \\n b", 1.25 , {"k" : {"kk" : [ [ ] , { } ]}}]  ',
      '"\\ud83d\\ude00 lone \\ud800 end"',
      '-0.5e-7',
      '{"name": 1.5E+2, "e": [1e1, 10]}',
    ];
    for (const t of texts) checkEveryPrefix(splitText(t, [1]));
  });

  it('rebuilds an empty array with whitespace inside as JSON.parse does, where partial-json drops members', () => {
    const text = '{"a":[ ],"b":[[ ],1],"c":2}';
    expect(partialJson(text)).toEqual({ a: [] }); // the dependency's behaviour this module does not copy
    const p = new PartialJsonStream();
    p.push(text);
    expect(p.value()).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('assigns members as partial-json does (a later duplicate key wins, "__proto__" is assigned)', () => {
    for (const t of ['{"a":1,"a":2}', '{"a":1,"a":"x', '{"__proto__":{"x":1},"y":2}']) checkEveryPrefix(splitText(t, [1]));
  });

  it('reports text that is not a prefix of valid JSON, with what and where, and stays in error', () => {
    const cases: [string, string][] = [
      ['{"a":1,}', 'unexpected "}" at offset 7: expected a key (a string)'],
      ['[1 2]', 'unexpected "2" at offset 3: expected "," or "]"'],
      ['{"a" 1}', 'unexpected "1" at offset 5: expected ":"'],
      ['[01]', 'unexpected "1" at offset 2: expected "," or "]"'],
      ['[1.]', 'unexpected "]" at offset 3: expected a digit'],
      ['"\\x"', 'unexpected "x" at offset 2: expected an escape character'],
      ['"\\u12g"', 'unexpected "g" at offset 5: expected a hex digit'],
      ['"a\nb"', 'unexpected "\\n" at offset 2: expected a string character'],
      ['[trux]', 'unexpected "x" at offset 4: expected "true"'],
      ['{} x', 'unexpected "x" at offset 3: expected the end of the text'],
      ['[NaN]', 'unexpected "N" at offset 1: expected a value'],
    ];
    for (const [text, message] of cases) {
      const p = new PartialJsonStream();
      for (const ch of text) p.push(ch);
      const r = p.value();
      expect(r.ok, text).toBe(false);
      expect(r.ok ? '' : r.reason, text).toBe('invalid');
      expect(p.error, text).toContain(message);
      p.push('1');
      expect(p.value(), text).toEqual(r);
    }
  });

  it('on arbitrary text, either matches partial-json or reports invalid text, never a wrong value', () => {
    const unit = fc.constantFrom(...'{}[]":, \n\\/u0a1-.eE+tfrnl\u00a0'.split(''));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (text) => {
        const p = new PartialJsonStream();
        let invalid = false;
        for (let i = 0; i < text.length; i++) {
          p.push(text[i]);
          const r = p.value();
          if (!r.ok && r.reason === 'invalid') invalid = true;
          else {
            expect(invalid, 'an error state is never left').toBe(false);
            expect(r, `after ${JSON.stringify(text.slice(0, i + 1))}`).toEqual(oracle(collapseEmptyArrays(text.slice(0, i + 1))));
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('returns the same value object until the next push, and shares closed subtrees', () => {
    const p = new PartialJsonStream();
    p.push('{"done":[{"x":1}],"open":[1,');
    const a = p.value();
    expect(p.value()).toBe(a);
    p.push('2');
    const b = p.value();
    expect(b).not.toBe(a);
    const av = (a as { value: { done: unknown; open: unknown[] } }).value;
    const bv = (b as { value: { done: unknown; open: unknown[] } }).value;
    expect(bv.done).toBe(av.done);
    expect(av.open).toEqual([1]); // a value handed out earlier does not change
    expect(bv.open).toEqual([1, 2]);
  });
});

describe('PartialJsonStream work', () => {
  /** A 50 KB document: a closed part, then records streaming into an array. */
  const big = JSON.stringify({ path: '/tmp/x', rows: Array.from({ length: 600, }, (_, i) => ({ id: i, note: `row ${i} \\ "q" \u00e9 ${'x'.repeat(i % 40)}`, n: i * 1.5e-3, ok: i % 2 === 0, nil: null })) });

  it('reads each character of a delta about once, wherever the delta falls in the text', () => {
    const p = new PartialJsonStream();
    let i = 0;
    let step = 0;
    while (i < big.length) {
      const part = big.slice(i, i + 1 + (step++ % 4));
      const before = p.work.scanned;
      p.push(part);
      // A character that ends a number is read twice; nothing else is re-read.
      expect(p.work.scanned - before).toBeLessThanOrEqual(part.length + 1);
      expect(p.work.scanned - before).toBeGreaterThanOrEqual(part.length);
      i += part.length;
    }
    expect(p.value()).toEqual({ ok: true, value: JSON.parse(big) });
  });

  it('builds a value from the open path only: closed subtrees cost nothing, however large', () => {
    const builtPerValue = (closedItems: number): number[] => {
      const p = new PartialJsonStream();
      p.push(`{"closed":${JSON.stringify(Array.from({ length: closedItems }, (_, i) => ({ i, s: 'x'.repeat(i % 10) })))},"open":{"text":"`);
      const out: number[] = [];
      for (let k = 0; k < 200; k++) {
        p.push(k % 7 === 0 ? ' \\n' : 'ab');
        const before = p.work.built;
        p.value();
        out.push(p.work.built - before);
      }
      return out;
    };
    const small = builtPerValue(10);
    const large = builtPerValue(20_000);
    // The root object (itself and its one closed member) and the open object: 3 units every time.
    expect(new Set(small)).toEqual(new Set([3]));
    expect(large).toEqual(small);
  });
});
