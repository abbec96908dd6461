// @vitest-environment jsdom
/**
 * The prompt editors' template support: after `{{` the variables and `@include` are offered,
 * after `{%` the block tags, and Enter or Tab takes the selected one the moment the list shows;
 * hover finds the name under the pointer inside a tag only.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CompletionContext, completionStatus, startCompletion, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { EditorView, runScopeHandlers } from '@codemirror/view';
import { getDefaultExtensions } from '@uiw/react-codemirror';
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

describe('accepting a template completion', () => {
  beforeAll(() => {
    // CodeMirror measures text ranges, which jsdom does not lay out.
    const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) };
    Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
    Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
  });
  afterEach(() => {
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  /**
   * A prompt editor as PromptEditor makes it (`autocompletion` in the basic setup or not) showing
   * `doc` with the cursor before `}}`, its completion list open. The clock stands still, so keys
   * arrive "the moment the list shows", as they do when the person types on without a pause.
   */
  async function openList(doc: string, setupCompletion: boolean): Promise<EditorView> {
    vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    const basicSetup = { lineNumbers: false, foldGutter: false, highlightActiveLine: false, history: false, autocompletion: setupCompletion };
    const view = new EditorView({
      parent: document.body.appendChild(document.createElement('div')),
      state: EditorState.create({ doc, selection: { anchor: doc.indexOf('}}') }, extensions: [getDefaultExtensions({ basicSetup, indentWithTab: false }), templateSupport(() => vars)] }),
    });
    startCompletion(view);
    await vi.waitFor(() => expect(completionStatus(view.state)).toBe('active'));
    return view;
  }

  function press(view: EditorView, key: string): boolean {
    return runScopeHandlers(view, new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }), 'editor');
  }

  it.each([true, false])('Enter puts the selected name in, not a new line (autocompletion in the basic setup: %s)', async (setupCompletion) => {
    const view = await openList('Hi {{ w}}', setupCompletion);
    expect(press(view, 'Enter')).toBe(true);
    expect(view.state.doc.toString()).toBe('Hi {{ who}}');
    expect(view.state.selection.main.head).toBe('Hi {{ who'.length);
    expect(completionStatus(view.state)).toBeNull();
    view.destroy();
  });

  it('Tab takes the selected option too, and without a list Tab is left to the browser (focus moves on)', async () => {
    const view = await openList('{{ pro}}', false);
    expect(press(view, 'Tab')).toBe(true);
    expect(view.state.doc.toString()).toBe('{{ profile}}');
    expect(completionStatus(view.state)).toBeNull();
    expect(press(view, 'Tab')).toBe(false);
    expect(view.state.doc.toString()).toBe('{{ profile}}');
    view.destroy();
  });
});

describe('nameAt', () => {
  it('finds a name inside a tag, not outside', () => {
    expect(nameAt('Hi {{ who }} who', 7)).toEqual({ name: 'who', from: 6, to: 9 });
    expect(nameAt('Hi {{ who }} who', 14)).toBeNull();
    expect(nameAt('{% if profile.a %}', 8)).toEqual({ name: 'profile', from: 6, to: 13 });
  });
});
