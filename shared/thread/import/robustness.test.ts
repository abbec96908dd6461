// Every importer on hostile input: an ImportError naming the place, never another error, and a
// valid thread whenever it succeeds.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importDocument, ImportError, IMPORT_FORMATS } from './index';
import { validateThread } from '../validate';

const FIX = path.resolve(__dirname, '../../../tests/fixtures/threads');
const load = (name: string): Record<string, any> => JSON.parse(readFileSync(path.join(FIX, name), 'utf8'));

function check(v: unknown, format?: (typeof IMPORT_FORMATS)[number]): void {
  try {
    const r = importDocument(v, format ? { format } : {});
    expect(validateThread(r.thread).ok).toBe(true);
  } catch (err) {
    if (!(err instanceof ImportError)) throw err;
    for (const p of err.problems) expect(typeof p.pointer).toBe('string');
  }
}

/** Every path into `doc` (objects and arrays), to replace one value at a time. */
function paths(doc: unknown, p: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (p.length) out.push(p);
  if (doc && typeof doc === 'object' && p.length < 8) for (const [k, x] of Object.entries(doc)) paths(x, [...p, Array.isArray(doc) ? Number(k) : k], out);
  return out;
}

describe('importers on hostile input', () => {
  it('an object that cannot be turned into text, where a type or name is expected, is an ImportError', () => {
    const hostile = { toString: false };
    check({ model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: [{ type: hostile }] }] });
    check({ messages: [{ role: 'function', name: hostile, content: 'x' }] }, 'openai-chat');
    check({ input: [{ role: 'user', content: [{ type: hostile, text: 'x' }] }] }, 'openai-responses');
    check({ model: 'gpt-4o', messages: [], tools: [{ type: hostile }] }, 'openai-chat');
  });

  it.each(IMPORT_FORMATS.map((f) => [f]))('%s: arbitrary JSON', (format) => {
    fc.assert(fc.property(fc.jsonValue(), (v) => check(v, format)), { numRuns: 200 });
  });

  it.each([['openai-chat-url-image.json'], ['anthropic-documents.json'], ['openai-chat.json'], ['anthropic-messages.json'], ['openai-responses.json']])('%s with any one value replaced', (name) => {
    const doc = load(name);
    fc.assert(
      fc.property(fc.constantFrom(...paths(doc)), fc.jsonValue({ maxDepth: 2 }), (p, value) => {
        const copy = load(name);
        let o = copy;
        for (const k of p.slice(0, -1)) o = o[k];
        o[p.at(-1)!] = value;
        check(copy);
      }),
      { numRuns: 300 },
    );
  });
});
