// @vitest-environment jsdom
/**
 * The model section's selects (provider, model id, and the parameters under More parameters:
 * reasoning effort, thinking, tool choice, parallel tool calls, response format, stop
 * sequences) make their option lists when opened, not hidden at once: a thread's settings
 * used to mount a dozen hidden lists, each positioned against the page's layout, in the task
 * that drew them (ui/dropdown.ts).
 */
import { describe, expect, it } from 'vitest';
import { act } from 'react';
import { appTests, openedApp } from '../../../../tests/support/jsdom-app';
import { exampleThread } from '../../sample-thread';
import { ModelSection } from './ModelSection';

const mount = appTests();

describe('ModelSection', () => {
  it('makes no option list until a select opens, then makes that one', async () => {
    const { app, session } = await openedApp(exampleThread());
    mount(app, <ModelSection thread={session.thread} readOnly={false} />);
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
