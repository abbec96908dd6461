/**
 * Find in messages (renderer/src/features/playground/find.ts): every occurrence of the query in
 * the fields a card shows, in reading order, case-insensitively, with offsets into the text
 * the field shows, and special characters taken literally.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Message } from '../../../../shared/thread/messages';
import { findInMessages, messageFields } from './find';
import { occurrences } from '../../ui/find-highlight';

const user = (id: string, text: string): Message => ({ id, role: 'user', content: [{ type: 'text', text }] });
const assistant: Message = {
  id: 'a1',
  role: 'assistant',
  content: [{ type: 'thinking', thinking: 'I should add.' }, { type: 'text', text: 'Adding now.' }],
  toolCalls: [{ id: 'c1', name: 'get-sum', arguments: { a: 2, b: 3 }, output: { content: [{ type: 'text', text: 'The sum is 5.' }], isError: false } }],
};

describe('findInMessages', () => {
  it('finds the query in texts, thinking, arguments as the editor shows them, and results, in reading order', () => {
    const messages = [user('u1', 'Please ADD 2 and 3.'), assistant];
    const { matches } = findInMessages(messages, 'add');
    expect(matches.map((m) => [m.index, m.field, m.from])).toEqual([
      [0, 'text', 7],
      [1, 'thinking', 9],
      [1, 'text', 0],
    ]);
    const args = findInMessages(messages, '"b": 3').matches;
    expect(args).toEqual([{ index: 1, messageId: 'a1', field: 'args:c1', from: 14, to: 20 }]);
    expect(messageFields(assistant).find((f) => f.field === 'args:c1')!.text.slice(14, 20)).toBe('"b": 3');
    expect(findInMessages(messages, 'sum is').matches[0].field).toBe('result:c1');
  });

  it('takes the query literally, and an empty query finds nothing', () => {
    expect(findInMessages([user('u', 'a.b a*b (x)')], '.').matches).toHaveLength(1);
    expect(findInMessages([user('u', 'a.b a*b (x)')], '(x)').matches[0].from).toBe(8);
    expect(findInMessages([user('u', 'anything')], '').matches).toEqual([]);
  });

  it('stops at the limit and says so', () => {
    const r = findInMessages([user('u', 'a'.repeat(50))], 'a', 10);
    expect(r.matches).toHaveLength(10);
    expect(r.truncated).toBe(true);
  });

  it('occurrences are in order, do not overlap, and each is the query ignoring case (ASCII)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', ' ', '.', '*') }), fc.string({ unit: fc.constantFrom('a', 'b', 'A', '.', '*'), minLength: 1, maxLength: 3 }), (text, query) => {
        const found = occurrences(text, query);
        let end = 0;
        for (const [from, to] of found) {
          expect(from).toBeGreaterThanOrEqual(end);
          expect(text.slice(from, to).toLowerCase()).toBe(query.toLowerCase());
          end = to;
        }
        // As many as a left-to-right scan for the lower-cased query finds.
        const lower = text.toLowerCase();
        const q = query.toLowerCase();
        let n = 0;
        for (let at = lower.indexOf(q); at >= 0; at = lower.indexOf(q, at + q.length)) n++;
        expect(found).toHaveLength(n);
      }),
    );
  });
});
