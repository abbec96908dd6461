// @vitest-environment jsdom
/**
 * Editors made on demand (renderer/src/ui/editor-mount.tsx, static-editor.tsx, editors.tsx):
 * in a region that is not active an editor is static text with the editor's accessible name and
 * text, in the tab order unless read-only; focusing it makes the CodeMirror editor and gives it
 * the focus; an active region makes its editors one per queue turn; find matches are marked in
 * both renderings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { EditorView } from '@codemirror/view';
import { EditorRegionContext, type EditorRegion } from './editor-mount';
import { JsonEditor, PromptEditor } from './editors';
import { WakeQueue } from './wake-queue';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// Mantine reads the colour scheme from a media query.
window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as never;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

function mount(region: EditorRegion | null, children: ReactNode) {
  const el = document.createElement('div');
  document.body.append(el);
  root = createRoot(el);
  const render = (r: EditorRegion | null) =>
    act(() => root!.render(<MantineProvider>{r ? <EditorRegionContext.Provider value={r}>{children}</EditorRegionContext.Provider> : children}</MantineProvider>));
  render(region);
  return { el, render };
}

/** A queue whose turns the test runs, and a region over it. */
function regionOver(active: boolean) {
  const turns: (() => void)[] = [];
  const queue = new WakeQueue({ schedule: (run) => turns.push(run) });
  const region = (a: boolean): EditorRegion => ({ active: a, schedule: (key, make) => queue.add(key, make, 2) });
  return { turns, region: region(active), regionWith: region };
}

const textbox = (el: Element, name: string) => el.querySelector<HTMLElement>(`[role="textbox"][aria-label="${name}"]`);

describe('editors made on demand', () => {
  it('an inactive region shows static text with the editor\'s name and text; focusing it makes the editor, focused', () => {
    const { region } = regionOver(false);
    const { el } = mount(region, <PromptEditor label="Text of message 1" value={'Hello\nworld'} onChange={() => {}} />);
    const box = textbox(el, 'Text of message 1')!;
    expect(el.querySelector('.cm-editor')).toBeNull();
    expect(box.textContent).toBe('Helloworld'); // one block per line, as CodeMirror's content has
    expect(box.querySelectorAll('.sw-static-line')).toHaveLength(2);
    expect(box.tabIndex).toBe(0);
    act(() => box.focus());
    const editor = el.querySelector('.cm-editor') as HTMLElement;
    expect(editor).not.toBeNull();
    const view = EditorView.findFromDOM(editor)!;
    expect(view.state.doc.toString()).toBe('Hello\nworld');
    expect(document.activeElement).toBe(view.contentDOM);
    expect(view.contentDOM.getAttribute('aria-label')).toBe('Text of message 1');
    expect(textbox(el, 'Text of message 1')).toBe(view.contentDOM); // one textbox of that name
  });

  it('a read-only static text is not in the tab order, says it is read-only, and shows the placeholder when empty', () => {
    const { region } = regionOver(false);
    const { el } = mount(region, <PromptEditor label="Result of get-sum" value="" readOnly placeholder="Tool result text" />);
    const box = textbox(el, 'Result of get-sum')!;
    expect(box.hasAttribute('tabindex')).toBe(false);
    expect(box.getAttribute('aria-readonly')).toBe('true');
    expect(box.querySelector('.sw-static-placeholder')?.textContent).toBe('Tool result text');
  });

  it('an active region makes its editors one per queue turn; outside any region they are made at once', () => {
    const { turns, region } = regionOver(true);
    const { el } = mount(region, (
      <>
        <PromptEditor label="A" value="a" />
        <JsonEditor label="B" value={'{\n  "x": 1\n}'} />
      </>
    ));
    expect(el.querySelectorAll('.cm-editor')).toHaveLength(0);
    expect(el.querySelector('.sw-static-linenumbers')?.textContent).toBe('1\n2\n3'); // the JSON editor's gutter
    act(() => turns.shift()!());
    expect(el.querySelectorAll('.cm-editor')).toHaveLength(1);
    act(() => turns.shift()!());
    expect(el.querySelectorAll('.cm-editor')).toHaveLength(2);
    expect(turns).toHaveLength(0);
    act(() => root!.unmount());
    const plain = mount(null, <PromptEditor label="C" value="c" />);
    expect(plain.el.querySelectorAll('.cm-editor')).toHaveLength(1);
  });

  it('an editor whose region turns inactive before its turn is not made; it is when the region is active again', () => {
    const { turns, regionWith } = regionOver(true);
    const { el, render } = mount(regionWith(true), <PromptEditor label="A" value="a" />);
    render(regionWith(false));
    while (turns.length) act(() => turns.shift()!());
    expect(el.querySelector('.cm-editor')).toBeNull();
    render(regionWith(true));
    while (turns.length) act(() => turns.shift()!());
    expect(el.querySelector('.cm-editor')).not.toBeNull();
  });

  it('marks find matches, the current one apart, in the static text and in the editor', () => {
    const { region } = regionOver(false);
    const highlight = { query: 'sum', current: 14 }; // the second 'sum': 'a sum\n' is 6 characters, 'another ' 8
    const { el } = mount(region, <PromptEditor label="T" value={'a sum\nanother sum'} highlight={highlight} />);
    const marks = [...el.querySelectorAll('mark.sw-find-hit')];
    expect(marks.map((m) => m.textContent)).toEqual(['sum', 'sum']);
    expect(marks.map((m) => m.getAttribute('data-find-current'))).toEqual([null, 'true']);
    act(() => textbox(el, 'T')!.focus());
    const hits = [...el.querySelectorAll('.cm-editor .sw-find-hit')];
    expect(hits.map((h) => h.textContent)).toEqual(['sum', 'sum']);
    expect(el.querySelectorAll('.cm-editor [data-find-current]')).toHaveLength(1);
  });
});
