/** A thread whose image data is not base64 is read-only in the window, naming the pointer, until its data is fixed. */
import { describe, expect, it, vi } from 'vitest';
import { produce } from 'immer';
import { threadWith } from '../../../tests/support/threads';
import type { Thread } from '../../../shared/thread/schema';
import { badData, keepsRepeats } from './repeated-ids';
import { runOffer } from '../features/playground/run-state';

function withImage(data: string): Thread {
  return threadWith({ messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', mimeType: 'image/png', data }] }] });
}

describe('data that is not base64', () => {
  it('is named by pointer, blocks runs and every edit that keeps it, and lets the edit that fixes it through', () => {
    const bad = withImage('iVBORw0K GgoAAAANSUhEUg==');
    expect(badData(bad)).toEqual([{ pointer: '/context/messages/0/content/1/data', message: 'is not valid base64 (RFC 4648 §4): " " at character 9 is not in the alphabet A–Z a–z 0–9 + /' }]);
    expect(runOffer(bad)).toMatchObject({ canPrimary: false, reason: 'Data at /context/messages/0/content/1/data is not valid base64: fix the thread file first.' });
    const stillBad = produce(bad, (d) => void (d.context.systemPrompt = 'x'));
    expect(keepsRepeats(bad, stillBad)).toBe(true);
    const fixed = withImage('iVBORw0KGgoAAAANSUhEUg==');
    expect(badData(fixed)).toEqual([]);
    expect(keepsRepeats(bad, fixed)).toBe(false);
    expect(runOffer(fixed).canPrimary).toBe(true);
  });
});

describe('large data', () => {
  it('is checked in a task after the first render: valid until then, then named and read-only, and the listeners re-render', async () => {
    const { LARGE } = await import('./data-check');
    const big = 'A'.repeat(LARGE + 4);
    const bad = withImage(`${big.slice(0, -4)}A!==`);
    // The render that asks first gets no problem: the scan of the large data does not hold it.
    expect(badData(bad)).toEqual([]);
    await vi.waitFor(() => expect(badData(bad)).toHaveLength(1));
    expect(badData(bad)[0]).toEqual({ pointer: '/context/messages/0/content/1/data', message: `is not valid base64 (RFC 4648 §4): "!" at character ${LARGE + 2} is not in the alphabet A–Z a–z 0–9 + /` });
    expect(runOffer(bad).canPrimary).toBe(false);
    expect(keepsRepeats(bad, produce(bad, (d) => void (d.context.systemPrompt = 'x')))).toBe(true);
    // Valid large data stays valid; an edit elsewhere does not check it again.
    const good = withImage(big);
    expect(badData(good)).toEqual([]);
    await new Promise((r) => setTimeout(r, 0));
    expect(badData(produce(good, (d) => void (d.context.systemPrompt = 'x')))).toEqual([]);
  });
});
