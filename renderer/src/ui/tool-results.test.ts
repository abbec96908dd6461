import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffLines, diffStat, latestTodo } from './tool-results';

const DIFF = `--- a/math.js
+++ b/math.js
@@ -1,3 +1,3 @@
 export function add(a, b) {
-  return a - b;
+  return a + b;
 }
@@ -10,2 +10,3 @@
 // end
--- a removed line that looks like a header
+++ an added one
+x
\\ No newline at end of file
`;

describe('diffLines', () => {
  it('classifies headers, hunks, added, removed and context lines with their numbers', () => {
    const lines = diffLines(DIFF);
    expect(lines.map((l) => l.kind)).toEqual(['file', 'file', 'hunk', 'context', 'del', 'add', 'context', 'hunk', 'context', 'del', 'add', 'add', 'note']);
    expect(lines[4]).toEqual({ kind: 'del', text: '-  return a - b;', oldNo: 2 });
    expect(lines[5]).toEqual({ kind: 'add', text: '+  return a + b;', newNo: 2 });
    expect(lines[6]).toMatchObject({ oldNo: 3, newNo: 3 });
    expect(lines[9]).toMatchObject({ kind: 'del', oldNo: 11 });
    expect(lines[11]).toMatchObject({ kind: 'add', newNo: 12 });
    expect(diffStat(lines)).toEqual({ added: 3, removed: 2 });
  });

  it('reads a hunk without counts as one line each, and a new file header after it', () => {
    const lines = diffLines('@@ -1 +1 @@\n-a\n+b\n--- x\n+++ y\n');
    expect(lines.map((l) => l.kind)).toEqual(['hunk', 'del', 'add', 'file', 'file']);
  });

  it('never throws and gives one entry per line on any text', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const lines = diffLines(s);
      const expected = s.split(/\r?\n/);
      if (expected[expected.length - 1] === '') expected.pop();
      expect(lines.map((l) => l.text)).toEqual(expected);
    }));
  });
});

describe('latestTodo', () => {
  it('finds the newest todo_write result, or null', () => {
    const todo = (content: string) => ({ output: { structuredContent: { kind: 'todo', items: [{ content, status: 'pending' }] } } });
    expect(latestTodo([{ role: 'user' }])).toBeNull();
    expect(latestTodo([
      { role: 'assistant', toolCalls: [todo('old')] },
      { role: 'assistant', toolCalls: [todo('first'), todo('newest'), { output: { structuredContent: { kind: 'bash' } } }] },
      { role: 'user' },
    ])).toEqual([{ content: 'newest', status: 'pending' }]);
  });
});
