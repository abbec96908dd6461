// @vitest-environment jsdom
/**
 * The model section's selects (provider, model id, and the parameters under More parameters:
 * reasoning effort, thinking, tool choice, parallel tool calls, response format, stop
 * sequences) make their option lists when opened, not hidden at once: a thread's settings
 * used to mount a dozen hidden lists, each positioned against the page's layout, in the task
 * that drew them (ui/dropdown.ts).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Provider as JotaiProvider } from 'jotai';
import { AppState } from '../../state/app';
import { AppStateProvider } from '../../state/context';
import { createViewerHost } from '../../host/viewer';
import { exampleThread } from '../../sample-thread';
import { ModelSection } from './ModelSection';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
  Element.prototype.scrollIntoView ??= () => {};
  // CodeMirror (the scripted model's script) measures text ranges.
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
});

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

describe('ModelSection', () => {
  it('makes no option list until a select opens, then makes that one', async () => {
    const thread = exampleThread();
    // An editable window over the thread (the viewer host's answers, not presentational).
    const app = new AppState({ ...createViewerHost(thread), presentational: false });
    await app.openThread(`${thread.title}.json`);
    const el = document.createElement('div');
    document.body.append(el);
    await act(async () => {
      root = createRoot(el);
      root.render(
        <MantineProvider>
          <AppStateProvider app={app}>
            <JotaiProvider store={app.store}>
              <ModelSection thread={app.store.get(app.sessionAtom)!.thread} readOnly={false} />
            </JotaiProvider>
          </AppStateProvider>
        </MantineProvider>,
      );
    });
    expect(document.querySelectorAll('input.mantine-Select-input, input.mantine-Autocomplete-input')).toHaveLength(2); // provider, model id
    expect(document.querySelectorAll('[role="option"]')).toHaveLength(0);
    expect(document.querySelectorAll('[role="listbox"]')).toHaveLength(0);
    // Opening one makes its list.
    const provider = document.querySelector<HTMLInputElement>('input.mantine-Select-input')!;
    await act(async () => {
      provider.click();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(document.querySelectorAll('[role="listbox"]').length).toBe(1);
    expect(document.querySelectorAll('[role="option"]').length).toBeGreaterThan(0);
  });
});
