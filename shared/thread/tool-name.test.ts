import { describe, expect, it } from 'vitest';
import { toolNameProblem } from './tools';

describe('toolNameProblem (the rule for a typed tool name)', () => {
  it('accepts what the model APIs accept and says what is wrong with the rest', () => {
    for (const ok of ['get_sum', 'search-web', 'A1', 'x'.repeat(64)]) expect(toolNameProblem(ok)).toBeNull();
    expect(toolNameProblem('lookup weather')).toBe('A tool name may use letters, digits, "_" and "-" only, not spaces.');
    expect(toolNameProblem('fs.read/file')).toBe('A tool name may use letters, digits, "_" and "-" only, not ".", "/".');
    expect(toolNameProblem('x'.repeat(65))).toBe('A tool name has at most 64 characters (this one has 65).');
    expect(toolNameProblem('')).toBe('A tool needs a name.');
  });
});
