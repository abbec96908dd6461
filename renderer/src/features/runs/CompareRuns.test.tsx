// @vitest-environment jsdom
/**
 * The Compare runs dialog as a person reads it: a table whose column headers name the run each
 * column shows, and whose step cells sit under those headers.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { CompareRuns } from './CompareRuns';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { ExecNode } from '../../../../shared/protocol/nodes';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => {
  // jsdom lacks what Mantine's Modal asks of a browser.
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
});

function record(runId: string, startedAt: number, model: string, reply: string, status: ExecNode['status'] = 'completed'): RunRecord {
  const nodes: ExecNode[] = [
    { id: `${runId}.1`, runId, kind: 'run', name: 'step', status, startedAt, endedAt: startedAt + 40 },
    { id: `${runId}.2`, runId, parentId: `${runId}.1`, kind: 'llm', name: 'llm', model, status, startedAt: startedAt + 1, endedAt: startedAt + 30, output: { text: reply } },
  ];
  return { runId, threadId: 't', mode: 'step', status, startedAt, endedAt: startedAt + 40, nodes, records: [] };
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

describe('Compare runs dialog', () => {
  it('heads each column with the run it shows and puts each run under its own header', async () => {
    const first = record('1a2b3c4d-1111', Date.UTC(2026, 10, 29, 9, 0, 0), 'openai/gpt-4.1-mini', 'Paris.');
    const second = record('9f8e7d6c-2222', Date.UTC(2026, 10, 29, 9, 5, 0), 'anthropic/claude-sonnet-4-5', 'It is Paris.', 'error');
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    await act(async () => {
      root!.render(<MantineProvider><CompareRuns records={[first, second]} onClose={() => {}} /></MantineProvider>);
    });
    const table = document.querySelector('table[aria-label="Runs compared step by step"]');
    expect(table).not.toBeNull();
    const headers = [...table!.querySelectorAll('thead th')];
    expect(headers.every((h) => h.getAttribute('scope') === 'col')).toBe(true);
    const t1 = new Date(first.startedAt).toLocaleString();
    const t2 = new Date(second.startedAt).toLocaleString();
    expect(headers.map((h) => h.getAttribute('aria-label') ?? h.textContent)).toEqual([
      'Step',
      `run 1a2b3c4d, started ${t1}, openai/gpt-4.1-mini, completed`,
      `run 9f8e7d6c, started ${t2}, anthropic/claude-sonnet-4-5, error`,
    ]);
    // What is seen says the same: short id, status word, start time and model.
    expect(headers[1].textContent).toBe(`Run 1a2b3c4dcompletedstarted ${t1} · openai/gpt-4.1-mini`);
    expect(headers[2].textContent).toBe(`Run 9f8e7d6cerrorstarted ${t2} · anthropic/claude-sonnet-4-5`);
    // The step row: each run's reply in the column of that run.
    const step = table!.querySelector('tr[aria-label="step 1, differs"]')!;
    const cells = [...step.children];
    expect(cells.map((c) => c.tagName)).toEqual(['TH', 'TD', 'TD']);
    expect(cells[1].textContent).toContain('Paris.');
    expect(cells[1].textContent).not.toContain('It is Paris.');
    expect(cells[2].textContent).toContain('It is Paris.');
  });
});
