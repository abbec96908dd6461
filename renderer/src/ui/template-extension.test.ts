/**
 * The prompt editors' template support: after `{{` the variables and `@include` are offered,
 * after `{%` the block tags; hover finds the name under the pointer inside a tag only.
 */
import { describe, expect, it } from 'vitest';
import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { nameAt, templateCompletions, templateSupport } from './template-extension';

const vars = [{ name: 'who', kind: 'text', value: 'Ada' }, { name: 'profile', kind: 'json', value: '{}' }];

function complete(doc: string): CompletionResult | null {
  const state = EditorState.create({ doc, extensions: [templateSupport(() => vars)] });
  const sources = state.languageDataAt<(c: CompletionContext) => CompletionResult | null>('autocomplete', doc.length);
  expect(sources).toHaveLength(1);
  return sources[0](new CompletionContext(state, doc.length, false));
}

describe('template completion', () => {
  it('offers the variables and @include after {{, block tags after {%, nothing elsewhere', () => {
    const r = complete('Hi {{ w');
    expect(r?.from).toBe(6);
    expect(r?.options.map((o) => o.label)).toEqual(['who', 'profile', '@include']);
    expect(complete('{{')?.options).toHaveLength(3);
    expect(complete('x {% e')?.options.map((o) => o.label)).toEqual(['if', 'elif', 'else', 'endif', 'for', 'endfor', 'set', 'raw', 'endraw']);
    expect(complete('plain text w')).toBeNull();
    expect(templateCompletions(() => vars)(new CompletionContext(EditorState.create({ doc: '{{ x }} y' }), 9, false))).toBeNull();
  });
});

describe('nameAt', () => {
  it('finds a name inside a tag, not outside', () => {
    expect(nameAt('Hi {{ who }} who', 7)).toEqual({ name: 'who', from: 6, to: 9 });
    expect(nameAt('Hi {{ who }} who', 14)).toBeNull();
    expect(nameAt('{% if profile.a %}', 8)).toEqual({ name: 'profile', from: 6, to: 13 });
  });
});
