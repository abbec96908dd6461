import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { parseCsv, parseDatasetFile, parseJsonl, toCsv, toJsonl, formatDatasetFile } from './dataset-io';
import type { Dataset } from './dataset';

describe('JSONL datasets', () => {
  it('reads case objects: own fields, `vars` objects and bare keys as variables (non-strings as JSON)', () => {
    const r = parseJsonl('{"id":"q1","question":"2+2?","expected":"4","tags":["math"]}\n\n{"vars":{"question":"Capital of France?","n":3},"assertions":[{"type":"contains","value":"Paris"}]}\n', 'qa');
    expect(r).toEqual({
      ok: true,
      dataset: {
        version: 1,
        name: 'qa',
        assertions: [],
        cases: [
          { id: 'q1', vars: { question: '2+2?' }, expected: '4', tags: ['math'] },
          { id: 'case-2', vars: { question: 'Capital of France?', n: '3' }, assertions: [{ type: 'contains', value: 'Paris' }] },
        ],
      },
    });
  });

  it('names the line of every bad case and reads nothing of a file with one', () => {
    const r = parseJsonl('{"id":"a"}\nnot json\n[1]\n{"id":"a"}\n{"assertions":[{"type":"regex","pattern":"("}]}\n', 'x');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatch(/^line 2: not JSON/);
    expect(r.errors[1]).toBe('line 3: a case is a JSON object, not an array');
    expect(r.errors).toHaveLength(2);
    const dup = parseJsonl('{"id":"a"}\n{"id":"a"}\n{"assertions":[{"type":"regex","pattern":"("}]}\n', 'x');
    expect(dup.ok).toBe(false);
    if (dup.ok) return;
    expect(dup.errors).toContain('line 2: id "a" is used by line 1 too; case ids must be unique');
    expect(dup.errors.some((e) => e.startsWith('line 3: assertions/0/pattern: not a valid regular expression'))).toBe(true);
    // Blank lines count: the names are the file's lines, not the cases' positions.
    const spaced = parseJsonl('\n{"id":"a"}\n\n{"id":"a"}\n', 'x');
    expect(spaced).toEqual({ ok: false, errors: ['line 4: id "a" is used by line 2 too; case ids must be unique'] });
  });

  it('skips a UTF-8 byte-order mark', () => {
    expect(parseJsonl('\uFEFF{"id":"a","q":"1"}\n', 'bom')).toEqual({ ok: true, dataset: { version: 1, name: 'bom', assertions: [], cases: [{ id: 'a', vars: { q: '1' } }] } });
  });

  it('lists the first 20 problems and counts the rest', () => {
    const r = parseJsonl('nope\n'.repeat(100_000), 'x');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(21);
    expect(r.errors[19]).toMatch(/^line 20: not JSON/);
    expect(r.errors[20]).toBe('… and 99980 more problems');
    const csv = parseCsv(`a,b\n${'1\n'.repeat(50)}`, 'x');
    expect(csv.ok).toBe(false);
    if (!csv.ok) expect(csv.errors.at(-1)).toBe('… and 30 more problems');
  });

  it('never throws on any text, and a dataset written as JSONL reads back the same', () => {
    fc.assert(fc.property(fc.string(), (s) => void parseJsonl(s, 'p')));
    const caseArb = fc.record({
      id: fc.string({ minLength: 1 }),
      vars: fc.dictionary(fc.string({ minLength: 1 }).filter((k) => !['id', 'expected', 'tags', 'assertions', 'vars', 'source'].includes(k)), fc.string()),
      expected: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
      tags: fc.option(fc.array(fc.string({ minLength: 1 }), { minLength: 1 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(caseArb, { selector: (c) => c.id, maxLength: 8 }), (cases) => {
        const clean = cases.map((c) => JSON.parse(JSON.stringify(c)));
        const d: Dataset = { version: 1, name: 'p', assertions: [], cases: clean };
        const back = parseJsonl(toJsonl(d), 'p');
        expect(back).toEqual({ ok: true, dataset: d });
      }),
    );
  });
});

describe('CSV datasets', () => {
  it('reads a header row: id, expected, tags (comma-separated), assertions (JSON), the rest variables; quoted cells with commas and newlines', () => {
    const csv = 'id,question,expected,tags,assertions\nq1,"Hello, world\nline 2",hi,"a, b","[{""type"":""contains"",""value"":""hi""}]"\n,plain,,,\n';
    const r = parseCsv(csv, 'greet');
    expect(r).toEqual({
      ok: true,
      dataset: {
        version: 1,
        name: 'greet',
        assertions: [],
        cases: [
          { id: 'q1', vars: { question: 'Hello, world\nline 2' }, expected: 'hi', tags: ['a', 'b'], assertions: [{ type: 'contains', value: 'hi' }] },
          { id: 'case-2', vars: { question: 'plain' } },
        ],
      },
    });
  });

  it('names the file line and column of a bad cell, and a header with a repeated or empty name', () => {
    const bad = parseCsv('id,assertions\nx,[oops\n', 'b');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]).toMatch(/^line 2: "assertions" is not JSON/);
    // A quoted cell spanning lines and blank lines (LF and CRLF) move the later rows' lines.
    for (const nl of ['\n', '\r\n']) {
      const later = parseCsv(['id,q', 'a,"two', 'lines"', '', '  ', 'b,x,extra', 'a,y', 'c'].join(nl) + nl, 'b');
      expect(later).toEqual({ ok: false, errors: ['line 6: Too many fields: expected 2 fields but parsed 3', 'line 8: Too few fields: expected 2 fields but parsed 1'] });
    }
    const dupId = parseCsv('id,q\n\na,"1\n2"\na,3\n', 'b');
    expect(dupId).toEqual({ ok: false, errors: ['line 5: id "a" is used by line 3 too; case ids must be unique'] });
    expect(parseCsv('\uFEFFid,q\na,1\n', 'b')).toEqual({ ok: true, dataset: { version: 1, name: 'b', assertions: [], cases: [{ id: 'a', vars: { q: '1' } }] } });
    const dup = parseCsv('q,q\n1,2\n', 'b');
    expect(dup).toEqual({ ok: false, errors: ['header: column "q" appears twice (columns 1 and 2); column names must be unique'] });
    const short = parseCsv('a,b\n1\n', 'b');
    expect(short).toEqual({ ok: false, errors: ['line 2: Too few fields: expected 2 fields but parsed 1'] });
    const unterminated = parseCsv('id,q\n"x,1\n', 'b');
    expect(unterminated.ok).toBe(false);
    // Named once, for the quote (not also as a row of too few fields).
    expect(unterminated).toEqual({ ok: false, errors: ['line 2: Quoted field unterminated'] });
    expect(parseCsv('id,q\na,1\n"b,2\nc,3\n', 'b')).toEqual({ ok: false, errors: ['line 3: Quoted field unterminated'] });
  });

  it('a repeated header name is an error naming the column and where it repeats, with nothing written to the console', () => {
    const spies = (['warn', 'log', 'error', 'info', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    try {
      // papaparse's header mode would rename these to q_1, q_2 (and a real "q_1" column clash with them).
      const r = parseCsv('q,a,q,q_1,q\n1,2,3,4,5\n', 'b');
      expect(r).toEqual({ ok: false, errors: ['header: column "q" appears 3 times (columns 1, 3 and 5); column names must be unique'] });
      expect(parseCsv('x,,x\n1,2,3\n', 'b')).toEqual({ ok: false, errors: ['header: column 2 has no name', 'header: column "x" appears twice (columns 1 and 3); column names must be unique'] });
      fc.assert(
        fc.property(fc.array(fc.constantFrom('a', 'b', 'id', 'q_1'), { minLength: 1, maxLength: 6 }), (names) => {
          const r2 = parseCsv(`${names.join(',')}\n${names.map((_, i) => i).join(',')}\n`, 'p');
          const repeated = [...new Set(names)].filter((n) => names.indexOf(n) !== names.lastIndexOf(n));
          expect(r2.ok).toBe(repeated.length === 0);
          if (!r2.ok) expect(r2.errors.map((e) => /column "([^"]+)"/.exec(e)?.[1])).toEqual(repeated);
        }),
      );
      for (const s of spies) expect(s).not.toHaveBeenCalled();
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });

  it('a row repeating the header (two CSV files joined) is an error naming its line, not a case', () => {
    const joined = 'id,q\na,1\nb,2\n\nid,q\nc,3\n';
    expect(parseCsv(joined, 'j')).toEqual({ ok: false, errors: ['line 5: repeats the header row (two CSV files joined into one?)'] });
    // The second file's byte-order mark does not hide its header.
    expect(parseCsv('id,q\na,1\n\uFEFFid,q\nb,2\n', 'j')).toEqual({ ok: false, errors: ['line 3: repeats the header row (two CSV files joined into one?)'] });
    expect(parseCsv('id,q\na,1\nid ,q\nb,2\n', 'j')).toEqual({ ok: false, errors: ['line 3: repeats the header row (two CSV files joined into one?)'] });
    // A row with some cells equal to the column names is a case.
    expect(parseCsv('id,q\nid,x\n', 'j')).toMatchObject({ ok: true });
    // Any dataset written twice into one file: the error names the line the second copy starts on.
    const caseArb = fc.record({ id: fc.string({ minLength: 1 }), vars: fc.record({ q: fc.string() }), expected: fc.option(fc.string({ minLength: 1 }), { nil: undefined }) });
    fc.assert(
      fc.property(fc.uniqueArray(caseArb, { selector: (c) => c.id, maxLength: 6 }), (cases) => {
        const one = toCsv({ version: 1, name: 'p', assertions: [], cases });
        const second = one.split('\n').length;
        const r = parseCsv(one + one, 'p');
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.errors).toContain(`line ${second}: repeats the header row (two CSV files joined into one?)`);
      }),
    );
  });

  it('reads a file of one column (there is no delimiter to detect)', () => {
    expect(parseCsv('question\n2+2\nthree\n', 'one')).toEqual({
      ok: true,
      dataset: { version: 1, name: 'one', assertions: [], cases: [{ id: 'case-1', vars: { question: '2+2' } }, { id: 'case-2', vars: { question: 'three' } }] },
    });
  });

  it('round-trips through toCsv, and never throws on any text', () => {
    const d: Dataset = {
      version: 1,
      name: 'rt',
      assertions: [],
      cases: [
        { id: 'a', vars: { q: 'x, "y"\nz', other: '1' }, expected: 'e', tags: ['t1', 't2'], assertions: [{ type: 'regex', pattern: '^x' }] },
        { id: 'b', vars: { q: '' } },
      ],
    };
    const back = parseCsv(toCsv(d), 'rt');
    expect(back.ok).toBe(true);
    if (back.ok) {
      expect(back.dataset.cases[0]).toEqual(d.cases[0]);
      expect(back.dataset.cases[1]).toEqual({ id: 'b', vars: { q: '', other: '' } });
    }
    fc.assert(fc.property(fc.string(), (s) => void parseCsv(s, 'p')));
  });
});

describe('dataset files', () => {
  it('reads what it writes, and names schema problems by pointer', () => {
    const d: Dataset = { version: 1, name: 'n', assertions: [{ type: 'json_schema', schema: { type: 'object' } }], cases: [{ id: 'a', vars: {} }] };
    expect(parseDatasetFile(formatDatasetFile(d))).toEqual({ ok: true, dataset: d });
    const bad = parseDatasetFile(JSON.stringify({ ...d, cases: [{ id: 'a', vars: { x: 1 } }] }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]).toMatch(/^\/cases\/0\/vars\/x: /);
    expect(parseDatasetFile('{ nope')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^not JSON/)] });
    const badSchema = parseDatasetFile(JSON.stringify({ ...d, assertions: [{ type: 'json_schema', schema: { type: 'nonsense' } }] }));
    expect(badSchema.ok).toBe(false);
    if (!badSchema.ok) expect(badSchema.errors[0]).toMatch(/^\/assertions\/0\/schema: not a usable JSON Schema/);
  });
});
