// @vitest-environment jsdom
/**
 * Warming the editors' code (editor-warmup.ts): one view per configuration, each in a step of
 * its own, made off the page and destroyed; a configuration that fails is skipped. And the
 * playground's warm-up (editors.tsx, warmEditorCode) makes its JSON and prompt editors once
 * per page.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EditorView } from '@codemirror/view';
import type { Extension } from '@codemirror/state';
import { warmEditors } from './editor-warmup';
import { warmEditorCode } from './editors';

beforeAll(() => {
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
});
afterEach(() => vi.restoreAllMocks());

/** A scheduler that keeps the steps for the test to run. */
function steps() {
  const queued: [string, () => void][] = [];
  return { queued, schedule: (key: string, step: () => void) => void queued.push([key, step]) };
}

describe('warmEditors', () => {
  it('makes and destroys one detached view per configuration, a step each, skipping one that fails', () => {
    const destroyed = vi.spyOn(EditorView.prototype, 'destroy');
    const s = steps();
    const broken = [{ not: 'an extension' }] as unknown as Extension[];
    warmEditors([
      { theme: 'light', doc: '{"a": 1}', extensions: [], basicSetup: { lineNumbers: true } },
      { theme: 'light', doc: 'x', extensions: broken, basicSetup: {} },
      { theme: 'dark', doc: 'hello', extensions: [], basicSetup: {}, readOnly: true },
    ], s.schedule);
    expect(destroyed).not.toHaveBeenCalled(); // nothing made until the steps run
    expect(s.queued.map(([k]) => k)).toEqual(['warm-editor-0', 'warm-editor-1', 'warm-editor-2']);
    for (const [, step] of s.queued) expect(step).not.toThrow();
    expect(destroyed).toHaveBeenCalledTimes(2);
    expect(document.body.children).toHaveLength(0); // never on the page
  });
});

describe('warmEditorCode', () => {
  it('warms the JSON and the prompt editor once per page', () => {
    const destroyed = vi.spyOn(EditorView.prototype, 'destroy');
    const s = steps();
    warmEditorCode('light', s.schedule);
    warmEditorCode('light', s.schedule);
    expect(s.queued).toHaveLength(2);
    for (const [, step] of s.queued) step();
    expect(destroyed).toHaveBeenCalledTimes(2); // both configurations made a view
  });
});
