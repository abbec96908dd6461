import { describe, expect, it } from 'vitest';
import { applyPatches, enablePatches } from 'immer';
import fc from 'fast-check';
import { fieldPatches } from './external-edit';
import { threadWith, userMessage } from '../../../tests/support/threads';
import type { Thread } from '../../../shared/thread/schema';

enablePatches();

const text = (t: Thread) => t.context.messages.map((m) => (m.content[0] as { text: string }).text);
const withText = (t: Thread, i: number, s: string): Thread => {
  const c = structuredClone(t);
  c.context.messages[i].content = [{ type: 'text', text: s }];
  return c;
};

describe('fieldPatches: a file changed outside, merged into the open copy', () => {
  const base = threadWith({ messages: [userMessage('a', 'm1'), userMessage('b', 'm2'), userMessage('c', 'm3')] });

  it('a message changed on disk does not undo an unsaved edit of another message', () => {
    const file = withText(base, 0, 'a outside');
    const open = withText(base, 1, 'b typed');
    const merged = applyPatches(open, fieldPatches(base, file, open));
    expect(text(merged)).toEqual(['a outside', 'b typed', 'c']);
  });

  it('finds the changed message by its id when the open copy added or removed messages', () => {
    const file = withText(base, 2, 'c outside');
    const open = structuredClone(base);
    open.context.messages.splice(0, 1); // m1 deleted in the window
    open.context.messages.push(userMessage('d', 'm4')); // and a message added
    const merged = applyPatches(open, fieldPatches(base, file, open));
    expect(merged.context.messages.map((m) => m.id)).toEqual(['m2', 'm3', 'm4']);
    expect(text(merged)).toEqual(['b', 'c outside', 'd']);
  });

  it('messages added or removed on disk replace the list whole, as before', () => {
    const file = structuredClone(base);
    file.context.messages.push(userMessage('new', 'm9'));
    const open = withText(base, 1, 'b typed');
    expect(text(applyPatches(open, fieldPatches(base, file, open)))).toEqual(['a', 'b', 'c', 'new']);
  });

  it('with the target the base, the patches turn the base into the file (any texts)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 3, maxLength: 3 }), (texts) => {
        let file = base;
        texts.forEach((s, i) => (file = withText(file, i, s)));
        expect(applyPatches(base, fieldPatches(base, file))).toEqual(file);
      }),
    );
  });
});
