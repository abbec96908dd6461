/** The window's place in the URL fragment: read, written, and round-tripped (place.ts). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hashWithPlace, placeFromHash, placeFromJson, samePlace, type Place } from './place';

describe('place in the URL fragment', () => {
  it('reads thread, run and node; a run or node without what holds it is dropped', () => {
    expect(placeFromHash('#thread=Drafts%2Fa+b.json&run=r1&node=r1.2')).toEqual({ thread: 'Drafts/a b.json', run: 'r1', node: 'r1.2' });
    expect(placeFromHash('#run=r1&node=n')).toEqual({});
    expect(placeFromHash('#thread=t.json&node=n')).toEqual({ thread: 't.json' });
    expect(placeFromHash('')).toEqual({});
    expect(placeFromHash('#%E0%A4%A')).toEqual({});
  });

  it('keeps other fragment keys when writing, and writes nothing for an empty place', () => {
    expect(hashWithPlace('#x=1', { thread: 't.json' })).toBe('#x=1&thread=t.json');
    expect(hashWithPlace('#thread=old.json&run=r', {})).toBe('');
  });

  it('round-trips any place (property)', () => {
    const part = fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' });
    fc.assert(
      fc.property(part, fc.option(part, { nil: undefined }), fc.option(part, { nil: undefined }), (thread, run, node) => {
        const p: Place = { thread, ...(run ? { run } : {}), ...(run && node ? { node } : {}) };
        expect(samePlace(placeFromHash(hashWithPlace('', p)), p)).toBe(true);
        expect(samePlace(placeFromJson(JSON.stringify(p)), p)).toBe(true);
      }),
    );
  });

  it('ignores stored junk', () => {
    expect(placeFromJson('not json')).toEqual({});
    expect(placeFromJson('[1]')).toEqual({});
    expect(placeFromJson('{"thread":5}')).toEqual({});
    expect(placeFromJson(null)).toEqual({});
  });
});
