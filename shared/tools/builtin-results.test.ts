import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { approvalPreview, questionsOf, toolResultView } from './builtin-results';

describe('toolResultView', () => {
  it('reads file changes, bash and todo results and refuses other values', () => {
    expect(toolResultView({ kind: 'file_change', path: 'a.js', before: null, after: 'x', diff: '' })).toEqual({ kind: 'files', changes: [{ kind: 'file_change', path: 'a.js', before: null, after: 'x', diff: '' }] });
    expect(toolResultView({ kind: 'file_changes', changes: [{ kind: 'file_change', path: 'b', after: '', diff: 'd' }, 3] })).toMatchObject({ kind: 'files', changes: [{ path: 'b', before: null }] });
    expect(toolResultView({ kind: 'bash', command: 'ls', exitCode: null, signal: 'SIGKILL', stdout: 'o', stderr: 'e', timedOut: true, truncated: false }))
      .toEqual({ kind: 'bash', command: 'ls', exitCode: null, signal: 'SIGKILL', stdout: 'o', stderr: 'e', timedOut: true, truncated: false });
    expect(toolResultView({ kind: 'todo', items: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'odd' }] })).toEqual({ kind: 'todo', items: [{ content: 'a', status: 'completed' }] });
    for (const bad of [null, 3, 'x', [], { kind: 'other' }, { kind: 'file_change' }, { kind: 'file_changes', changes: 'no' }]) expect(toolResultView(bad)).toBeNull();
  });

  it('never throws on any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => { toolResultView(v); approvalPreview(v); questionsOf(v); }));
  });
});

describe('approvalPreview and questionsOf', () => {
  it('reads a preview and questions', () => {
    expect(approvalPreview({ kind: 'bash', command: 'node --test', cwd: '/w' })).toEqual({ kind: 'bash', command: 'node --test', cwd: '/w' });
    expect(approvalPreview({ kind: 'file_change', path: 'a', diff: '@@' })).toEqual({ kind: 'file_change', path: 'a', diff: '@@' });
    expect(approvalPreview({ kind: 'bash' })).toBeNull();
    expect(questionsOf({ kind: 'question', questions: [{ id: 'q1', question: 'Which?', options: ['a', 2, 'b'] }, { id: 3 }] }))
      .toEqual([{ id: 'q1', question: 'Which?', options: ['a', 'b'] }]);
    expect(questionsOf({ kind: 'question', questions: [] })).toBeNull();
  });
});
