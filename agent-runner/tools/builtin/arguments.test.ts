import { describe, expect, it } from 'vitest';
import { normalizeArguments } from './arguments';

describe('normalizeArguments', () => {
  it('reads the argument names imported tools use, keeping Stepwise names first', () => {
    expect(normalizeArguments('read', { file_path: 'a.txt', offset: 2 })).toMatchObject({ path: 'a.txt', offset: 2 });
    expect(normalizeArguments('edit', { path: 'b', file_path: 'a' }).path).toBe('b');
    expect(normalizeArguments('bash', { command: 'ls', timeout: 5 }).timeout_ms).toBe(5);
    expect(normalizeArguments('todo_write', { todos: [{ content: 'x', status: 'pending' }] }).items).toEqual([{ content: 'x', status: 'pending' }]);
  });

  it('gives questions ids and turns {label} options into text', () => {
    const q = normalizeArguments('ask_user_question', { questions: [{ question: 'Colour?', header: 'colour', options: [{ label: 'red', description: 'warm' }] }, { question: 'Why?' }] });
    expect(q.questions).toEqual([{ id: 'colour', question: 'Colour?', options: ['red'] }, { id: 'q2', question: 'Why?' }]);
  });
});
