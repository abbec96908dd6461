/**
 * Branches (docs/architecture.md#branches-and-time-travel) in the browser: a thread whose
 * scripted model called get_weather (result "rain") and then advised an umbrella. Branch from
 * here on the tool call's message opens the branch — that message and the ones before it,
 * linked back to its source. Its tool result is edited to "sunny" and the branch runs: the model
 * now advises sunglasses. The source is untouched and lists the branch. Then, in the source,
 * Run from this message drops the later message and runs from the tool call again, and Undo
 * brings the dropped message back.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { Thread } from '../../shared/thread/schema';
import { test, expect, shot } from './fixtures';

/** Replaces the text of a CodeMirror editor (its content element is the labelled textbox). */
async function setEditorText(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

const weather: Thread = {
  version: 1,
  id: 'weather-thread',
  title: 'Weather',
  model: {
    provider: 'scripted',
    id: 'scripted',
    params: { tokensPerSecond: 400 },
    script: [
      { when: 'Paris', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
      { when: 'sunny', text: 'Take sunglasses.' },
      { text: 'Take an umbrella.' },
    ],
  },
  context: {
    systemPrompt: 'You advise travellers.',
    tools: [{ type: 'function', name: 'get_weather', description: 'The weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    messages: [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'What should I take to Paris?' }] },
      { id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' }, output: { content: [{ type: 'text', text: 'rain' }], isError: false } }] },
      { id: 'a2', role: 'assistant', content: [{ type: 'text', text: 'Take an umbrella.' }] },
    ],
  },
  runRefs: [],
};

test('branch at a tool call, edit its result in the branch, run the branch', async ({ page, serve }) => {
  fs.writeFileSync(path.join(serve.home, 'workspace', 'Weather.json'), JSON.stringify(weather, null, 2));
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Weather', exact: true }).click();
  await expect(page.getByLabel('assistant message 3', { exact: true })).toBeVisible();

  // Branch from here on the message with the tool call.
  await page.getByRole('button', { name: 'More actions for message 2' }).click();
  await page.getByRole('menuitem', { name: 'Branch from here' }).click();
  const links = page.getByLabel('Branches', { exact: true });
  await expect(links).toContainText('Branch of Weather at message 2');
  await expect(page.getByRole('treeitem', { name: 'thread Weather (branch)', exact: true })).toBeVisible();
  await expect(page.getByLabel('assistant message 2', { exact: true })).toBeVisible();
  await expect(page.getByLabel('assistant message 3', { exact: true })).toHaveCount(0);

  // Edit the tool's result in the branch, then run it: the model sees the new result.
  const card = page.getByLabel('assistant message 2', { exact: true }).getByLabel('tool call get_weather', { exact: true });
  await setEditorText(page, card.getByRole('textbox', { name: 'Result of get_weather' }), 'sunny');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByLabel('assistant message 3', { exact: true }).getByRole('textbox', { name: 'Text of message 3' })).toContainText('Take sunglasses.', { timeout: 30_000 });
  await shot(page, '40-branch-run');

  const files = fs.readdirSync(path.join(serve.home, 'workspace'));
  expect(files).toContain('Weather (branch).json');
  await expect
    .poll(() => (JSON.parse(fs.readFileSync(path.join(serve.home, 'workspace', 'Weather (branch).json'), 'utf8')) as Thread).context.messages.length, { timeout: 10_000 })
    .toBe(3);
  const branch = JSON.parse(fs.readFileSync(path.join(serve.home, 'workspace', 'Weather (branch).json'), 'utf8')) as Thread;
  expect(branch.branchOf).toEqual({ threadId: 'weather-thread', title: 'Weather', messageId: 'a1' });
  expect(branch.context.messages[1].role === 'assistant' && branch.context.messages[1].toolCalls?.[0].output?.content).toEqual([{ type: 'text', text: 'sunny' }]);

  // Back to the source through the link: untouched, and it lists its branch.
  await links.getByRole('button', { name: 'Weather', exact: true }).click();
  await expect(page.getByLabel('Branches', { exact: true })).toContainText('Branches: Weather (branch)');
  const result = page.getByLabel('assistant message 2', { exact: true }).getByRole('textbox', { name: 'Result of get_weather' });
  await expect(result).toContainText('rain');
  await expect(page.getByLabel('assistant message 3', { exact: true }).getByRole('textbox', { name: 'Text of message 3' })).toContainText('Take an umbrella.');

  // Run from this message: the later message goes (one undoable step) and the thread runs from the tool call.
  await page.getByRole('button', { name: 'More actions for message 2' }).click();
  await page.getByRole('menuitem', { name: 'Run from this message' }).click();
  await expect(page.getByRole('treeitem', { name: /^run .*completed/ }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('assistant message 3', { exact: true }).getByRole('textbox', { name: 'Text of message 3' })).toContainText('Take an umbrella.');
  await expect(page.getByLabel('assistant message 4', { exact: true })).toHaveCount(0);
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  await undo.click(); // the run's result
  await expect(page.getByLabel('assistant message 3', { exact: true })).toHaveCount(0);
  await undo.click(); // the dropped message is back
  await expect(page.getByLabel('assistant message 3', { exact: true }).getByRole('textbox', { name: 'Text of message 3' })).toContainText('Take an umbrella.');
});

/**
 * Writes a ReAct thread `title` (Auto-run tools on) into the workspace whose scripted model calls
 * the built-in tool lookup, then answers "Answer one."; opens it and runs it to its end.
 */
async function ranLookupThread(page: Page, serve: { home: string; url: string }, title: string): Promise<Locator> {
  const react: Thread = {
    ...weather,
    id: `${title.toLowerCase()}-thread`,
    title,
    model: { ...weather.model, script: [{ when: 'Paris', toolCalls: [{ name: 'lookup', arguments: { q: 'Paris' } }] }, { text: 'Answer one.' }] },
    context: { systemPrompt: 'Look things up.', tools: [{ type: 'builtin', name: 'lookup', parameters: { type: 'object' } }], messages: [weather.context.messages[0]] },
    settings: { autoRunTools: true, maxTurns: 4 },
  };
  fs.writeFileSync(path.join(serve.home, 'workspace', `${title}.json`), JSON.stringify(react, null, 2));
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: `thread ${title}`, exact: true }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const llm = page.getByRole('treeitem', { name: 'llm scripted, completed' });
  await expect(llm).toHaveCount(2, { timeout: 30_000 });
  return llm;
}

test('re-run a ReAct run from its second model call, and branch at its first', async ({ page, serve }) => {
  const llm = await ranLookupThread(page, serve, 'Lookup');
  await expect(page.getByLabel('assistant message 3', { exact: true }).getByRole('textbox', { name: 'Text of message 3' })).toContainText('Answer one.');

  // Re-run from call 2: call 1 and its tool are played back, call 2 runs live.
  await llm.nth(1).click();
  await page.getByRole('button', { name: 'Re-run from this call' }).click();
  await page.getByRole('tab', { name: 'Run history' }).click();
  await expect(page.getByText(/re-run of \S+ from call 2/)).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Detail' }).click();
  await expect(llm).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByLabel('assistant message 3', { exact: true }).getByRole('textbox', { name: 'Text of message 3' })).toContainText('Answer one.');
  await expect(page.getByLabel('assistant message 4', { exact: true })).toHaveCount(0); // replaced, not appended
  await llm.first().click();
  await expect(page.getByText(/^Played back from run \S+: its recorded output, no provider contacted\.$/)).toBeVisible();
  await page.getByRole('treeitem', { name: 'tool lookup, error' }).click();
  await expect(page.getByText(/^Played back from run \S+: its recorded result, no tool contacted\.$/)).toBeVisible();
  await llm.nth(1).click();
  await expect(page.getByText(/^Played back from run/)).toHaveCount(0);

  // Branch at the first model call of the new run: the conversation as it was there.
  await llm.first().click();
  await page.getByRole('button', { name: 'Branch from here' }).click();
  await expect(page.getByLabel('Branches', { exact: true })).toContainText(/Branch of Lookup at run \S+/);
  await expect(page.getByLabel('assistant message 2', { exact: true })).toBeVisible();
  await expect(page.getByLabel('assistant message 3', { exact: true })).toHaveCount(0);
});

test('replay a run picked in the model section: offline, the same conversation', async ({ page, serve }) => {
  const llm = await ranLookupThread(page, serve, 'Replayed');

  // The replay provider, playing the run just made: picked from the thread's runs (the run
  // folded the settings away: open them).
  await page.getByRole('button', { name: /^Thread setup/ }).click();
  await page.getByRole('combobox', { name: 'Provider', exact: true }).click();
  await page.getByRole('option', { name: 'replay', exact: true }).click();
  await page.getByRole('combobox', { name: 'Replay run', exact: true }).click();
  await page.getByRole('option', { name: /^react · / }).click();
  await page.getByRole('button', { name: 'More actions for message 1' }).click();
  await page.getByRole('menuitem', { name: 'Run from this message' }).click();
  await page.getByRole('tab', { name: 'Run history' }).click();
  await expect(page.getByRole('button', { name: 'Open', exact: true })).toHaveCount(2, { timeout: 30_000 }); // two runs in the history
  await page.getByRole('tab', { name: 'Detail' }).click();
  await expect(llm).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByLabel('assistant message 3', { exact: true }).getByRole('textbox', { name: 'Text of message 3' })).toContainText('Answer one.');
  await expect(page.getByLabel('assistant message 4', { exact: true })).toHaveCount(0);
  await page.getByRole('treeitem', { name: 'tool lookup, error' }).click();
  await expect(page.getByText(/^Played back from run \S+: its recorded result, no tool contacted\.$/)).toBeVisible();
});
