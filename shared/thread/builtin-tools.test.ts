import { describe, expect, it } from 'vitest';
import { validateArguments } from '../json/json-schema';
import { parseThreadText } from './thread-text';
import { BUILTIN_TOOLS, builtinNameOf } from './builtin-tools';

/** One valid call per tool: its schema accepts it and refuses it without its required fields. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  read: { path: 'a.txt', offset: 2, limit: 5 },
  write: { path: 'a.txt', content: 'x' },
  edit: { path: 'a.txt', old_string: 'a', new_string: 'b' },
  apply_patch: { patch: '--- a/x\n+++ b/x\n' },
  ls: {},
  glob: { pattern: '**/*.ts' },
  grep: { pattern: 'x', ignore_case: true },
  bash: { command: 'ls', timeout_ms: 10 },
  web_fetch: { url: 'https://example.com' },
  todo_write: { items: [{ content: 'x', status: 'pending' }] },
  ask_user_question: { questions: [{ id: 'q', question: 'Why?', options: ['a'] }] },
  sleep: { seconds: 1 },
};

describe('built-in tool schemas', () => {
  it('accept a valid call and name what a bad one lacks', () => {
    expect(Object.keys(BUILTIN_TOOLS).sort()).toEqual(Object.keys(SAMPLES).sort());
    for (const [name, args] of Object.entries(SAMPLES)) {
      expect(validateArguments(BUILTIN_TOOLS[name].parameters, args), name).toBeFalsy();
      const required = (BUILTIN_TOOLS[name].parameters.required as string[]) ?? [];
      if (required.length) expect(validateArguments(BUILTIN_TOOLS[name].parameters, {})?.join(' '), name).toMatch(new RegExp(required[0]));
    }
    expect(validateArguments(BUILTIN_TOOLS.todo_write.parameters, { items: [{ content: 'x', status: 'done' }] })).toBeTruthy();
  });

  it('only write, edit, apply_patch, bash and web_fetch need approval', () => {
    expect(Object.keys(BUILTIN_TOOLS).filter((n) => BUILTIN_TOOLS[n].approval).sort()).toEqual(['apply_patch', 'bash', 'edit', 'web_fetch', 'write']);
  });

  it('maps names: own names, config.tool, imported names; unknown ones to nothing', () => {
    expect(builtinNameOf({ name: 'read' })).toBe('read');
    expect(builtinNameOf({ name: 'Bash' })).toBe('bash');
    expect(builtinNameOf({ name: 'my_reader', config: { tool: 'read' } })).toBe('read');
    expect(builtinNameOf({ name: 'read_file' })).toBe('read');
    expect(builtinNameOf({ name: 'TodoWrite' })).toBe('todo_write');
    expect(builtinNameOf({ name: 'web_search' })).toBeUndefined();
    expect(builtinNameOf({ name: 'toString' })).toBeUndefined();
  });

  it('an imported Anthropic bash tool runs as the built-in bash', () => {
    const request = { model: 'claude-x', max_tokens: 10, tools: [{ type: 'bash_20250124', name: 'bash' }], messages: [{ role: 'user', content: 'hi' }] };
    const { thread } = parseThreadText('req.json', JSON.stringify(request));
    const tool = thread.context.tools[0];
    expect(tool.type).toBe('builtin');
    expect(builtinNameOf(tool)).toBe('bash');
  });
});
