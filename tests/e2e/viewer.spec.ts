/**
 * The read-only viewer (no transport, presentational): a thread file opened in the page is
 * shown whole — messages, tools, the stored run's tree — with every edit and run control
 * hidden and its editors read-only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, shot } from './fixtures';

test('a thread file opens read-only: content shown, no run or edit controls', async ({ page, serve }) => {
  await page.goto(`${serve.origin}/?viewer-page`); // the page itself needs no token; without one it is the viewer
  const example = JSON.parse(readFileSync(path.resolve('resources/examples/MCP agent, step by step.json'), 'utf8'));
  const file = path.join(serve.home, 'to-view.json');
  writeFileSync(file, JSON.stringify(example));
  await expect(page.getByRole('button', { name: 'Open a thread file' })).toBeVisible();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open a thread file' }).click()]);
  await chooser.setFiles(file);
  await expect(page.getByText('Read-only viewer — open this thread in Stepwise to edit and run it.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Text of message 1' })).toContainText('What is 17 + 25?');
  await expect(page.getByRole('textbox', { name: 'Text of message 1' })).toHaveAttribute('contenteditable', 'false');
  for (const name of ['Run', 'Continue', 'Stop', 'Run all tools', 'Add user message', 'New thread', 'Add function tool', 'Settings']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole('button', { name: 'Show tool get-sum' })).toBeVisible();
  await shot(page, '19-viewer');
});
