// @vitest-environment jsdom
/**
 * The variables' NAME=value text area grows with its text by CSS (sw-grow-textarea in
 * styles.css): rendering it again (a run starting or ending turns the playground read-only and
 * back) measures nothing, so it lays out no page inside the task that renders it.
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
import { VariablesField } from './VariablesField';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
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

describe('VariablesField', () => {
  it('grows its text area by CSS, measuring nothing when it renders', async () => {
    const thread = { ...exampleThread() };
    thread.context = { ...thread.context, variables: { CITY: 'Paris', DAYS: '3' } };
    const app = new AppState({ ...createViewerHost(thread), presentational: false });
    await app.openThread(`${thread.title}.json`);
    const el = document.createElement('div');
    document.body.append(el);
    root = createRoot(el);
    // Count reads of the computed style: a script measuring a text area starts there.
    let styleReads = 0;
    const getComputedStyle = window.getComputedStyle;
    window.getComputedStyle = (...a: Parameters<typeof getComputedStyle>) => {
      if (a[0] instanceof HTMLTextAreaElement) styleReads++;
      return getComputedStyle(...a);
    };
    try {
      const show = (readOnly: boolean) =>
        act(() =>
          root!.render(
            <MantineProvider>
              <AppStateProvider app={app}>
                <JotaiProvider store={app.store}>
                  <VariablesField thread={app.store.get(app.sessionAtom)!.thread} readOnly={readOnly} />
                </JotaiProvider>
              </AppStateProvider>
            </MantineProvider>,
          ),
        );
      show(false);
      show(true);
      show(false);
    } finally {
      window.getComputedStyle = getComputedStyle;
    }
    const area = el.querySelector('textarea')!;
    expect(area.value).toBe('CITY=Paris\nDAYS=3');
    expect(styleReads).toBe(0);
    expect(document.querySelectorAll('textarea')).toHaveLength(1); // no hidden measuring copy
    expect(area.classList.contains('sw-grow-textarea')).toBe(true);
  });
});
