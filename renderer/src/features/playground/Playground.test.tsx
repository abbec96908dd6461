// @vitest-environment jsdom
/**
 * A run starting turns the playground read-only: the header says so at once, in the commit that
 * takes the change, and the thread's content follows in a later, background render (a deferred
 * value): rendering the whole thread again is not part of the task that takes the run's start.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, Profiler } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Provider as JotaiProvider } from 'jotai';
import { AppState } from '../../state/app';
import { AppStateProvider } from '../../state/context';
import { createViewerHost } from '../../host/viewer';
import { exampleThread } from '../../sample-thread';
import { Playground } from './Playground';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
  Element.prototype.scrollIntoView ??= () => {};
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
  if (!(document as { fonts?: unknown }).fonts) {
    Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() } });
  }
});

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

async function until(cond: () => unknown, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await act(() => new Promise((r) => setTimeout(r, 10)));
  }
}

describe('Playground', () => {
  it('says read-only in the header at once, and turns the content read-only in a later render', async () => {
    const thread = exampleThread();
    const app = new AppState({ ...createViewerHost(thread), presentational: false });
    await app.openThread(`${thread.title}.json`);
    const el = document.createElement('div');
    document.body.append(el);
    const badge = () => [...el.querySelectorAll('.mantine-Badge-root')].some((b) => b.textContent?.includes('running — read-only'));
    const addButton = () => [...el.querySelectorAll('button')].some((b) => b.textContent === 'Add user message');
    /** What each commit showed: the header's badge, and the content still editable. */
    const commits: { badge: boolean; editable: boolean }[] = [];
    await act(async () => {
      root = createRoot(el);
      root.render(
        <MantineProvider>
          <AppStateProvider app={app}>
            <JotaiProvider store={app.store}>
              <Profiler id="playground" onRender={() => commits.push({ badge: badge(), editable: addButton() })}>
                <Playground />
              </Profiler>
            </JotaiProvider>
          </AppStateProvider>
        </MantineProvider>,
      );
    });
    await until(addButton, 'the messages section');
    commits.length = 0;
    await act(async () => app.store.get(app.sessionAtom)!.setRunning('run_1'));
    await until(() => !addButton(), 'the content to turn read-only');
    expect(badge()).toBe(true);
    // A commit showed the badge while the content was still as it was: the content came later.
    expect(commits).toContainEqual({ badge: true, editable: true });
    expect(commits.at(-1)).toEqual({ badge: true, editable: false });
  });
});
