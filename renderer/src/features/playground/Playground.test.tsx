// @vitest-environment jsdom
/**
 * A run starting turns the playground read-only: the header says so at once, in the commit that
 * takes the change, and the thread's content follows in a later, background render (a deferred
 * value): rendering the whole thread again is not part of the task that takes the run's start.
 */
import { describe, expect, it } from 'vitest';
import { act, Profiler } from 'react';
import { appTests, openedApp, until } from '../../../../tests/support/jsdom-app';
import { exampleThread } from '../../sample-thread';
import { Playground } from './Playground';

const mount = appTests();

describe('Playground', () => {
  it('says read-only in the header at once, and turns the content read-only in a later render', async () => {
    const { app, session } = await openedApp(exampleThread());
    const shown: { el?: HTMLElement } = {};
    const badge = () => [...(shown.el?.querySelectorAll('.mantine-Badge-root') ?? [])].some((b) => b.textContent?.includes('running — read-only'));
    const addButton = () => [...(shown.el?.querySelectorAll('button') ?? [])].some((b) => b.textContent === 'Add user message');
    /** What each commit showed: the header's badge, and the content still editable. */
    const commits: { badge: boolean; editable: boolean }[] = [];
    shown.el = mount(app, (
      <Profiler id="playground" onRender={() => commits.push({ badge: badge(), editable: addButton() })}>
        <Playground />
      </Profiler>
    )).el;
    await until(addButton, 'the messages section');
    commits.length = 0;
    await act(async () => session.setRunning('run_1'));
    await until(() => !addButton(), 'the content to turn read-only');
    expect(badge()).toBe(true);
    // A commit showed the badge while the content was still as it was: the content came later.
    expect(commits).toContainEqual({ badge: true, editable: true });
    expect(commits.at(-1)).toEqual({ badge: true, editable: false });
  });
});
