/**
 * Tool-call arguments edited as JSON text set only the keys the person changed (json-keys.ts):
 * a key another window changed meanwhile stays, as the document's map of arguments keeps it.
 */
import { describe, expect, it } from 'vitest';
import { setChangedKeys } from './json-keys';

describe('setChangedKeys', () => {
  it("sets the keys the person changed or added, deletes those they removed, and keeps another window's other keys", () => {
    // The text was made from {city, units, days}; meanwhile another window changed `days` and added `lang`.
    const doc: Record<string, unknown> = { city: 'Paris', units: 'metric', days: 5, lang: 'fr' };
    setChangedKeys(doc, { city: 'Paris', units: 'metric', days: 3 }, { city: 'Lyon', days: 3, hourly: true });
    expect(doc).toEqual({ city: 'Lyon', days: 5, lang: 'fr', hourly: true });
  });

  it('takes the whole value when the text was not made from an object', () => {
    const doc: Record<string, unknown> = { a: 1, b: 2 };
    setChangedKeys(doc, undefined, { a: 1, c: 3 });
    expect(doc).toEqual({ a: 1, c: 3 });
  });
});
