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
import { ModelSection, needsKey } from './ModelSection';

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

describe('needsKey (issue 30 item 6: a "(needs a key)" example says where the key goes)', () => {
  it('is true for a hosted built-in whose variable is not set, false once set, saved or local', () => {
    expect(needsKey({ api: 'openai-completions', builtin: true, keyHint: '$OPENAI_API_KEY' })).toBe(true);
    expect(needsKey({ api: 'openai-completions', builtin: true, keyHint: '$OPENAI_API_KEY', detected: true })).toBe(false);
    expect(needsKey({ api: 'anthropic-messages', builtin: true, keyHint: 'sk-…abcd' })).toBe(false);
    expect(needsKey({ api: 'openai-completions', saved: true, keyHint: '$MY_KEY' })).toBe(false);
    expect(needsKey({ api: 'openai-completions', baseUrl: 'http://localhost:11434/v1' })).toBe(false);
    expect(needsKey({ api: 'openai-completions', baseUrl: 'https://openrouter.ai/api/v1' })).toBe(true);
    expect(needsKey({ api: 'scripted', builtin: true })).toBe(false);
  });
});
