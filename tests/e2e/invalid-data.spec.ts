/**
 * A thread file whose image data is not base64, opened in Chromium through a real
 * `stepwise serve`: the playground says it is read-only and names the JSON pointer of the broken
 * data, offers no way to run it (Run is disabled, no tool run) nor to edit it,
 * and the file on disk is left exactly as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';

const POINTER = '/context/messages/0/content/1/data';
const broken = {
  version: 1,
  id: '0b7e4a2c-1d3f-4e5a-9b6c-7d8e9f0a1b2c',
  title: 'Broken image',
  model: { provider: 'scripted', id: 'scripted', params: {} },
  context: {
    systemPrompt: '',
    tools: [],
    messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', mimeType: 'image/png', data: 'iVBORw0K!!not base64' }] }],
  },
  runRefs: [],
};

test('a thread with data that is not base64 opens read-only, naming the pointer, with no run control', async ({ page, serve }) => {
  const file = path.join(serve.home, 'workspace', 'Broken image.json');
  const text = JSON.stringify(broken, null, 2);
  writeFileSync(file, text);
  await page.goto(serve.url);
  await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread Broken image' }).click();
  const notice = page.getByRole('alert').filter({ hasText: 'not valid base64' });
  await expect(notice).toContainText('it is read-only');
  await expect(notice).toContainText(`${POINTER}: is not valid base64 (RFC 4648 §4): "!" at character 9`);
  await expect(page.getByText('invalid data — read-only')).toBeVisible();
  // The message is shown, but nothing can be added, edited or run.
  await expect(page.getByText('What is in this picture?')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add user message' })).toHaveCount(0);
  const run = page.getByRole('toolbar', { name: 'Run controls' }).getByRole('button', { name: 'Run', exact: true });
  await expect(run).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Run (tool|all tools)/ })).toHaveCount(0);
  expect(readFileSync(file, 'utf8')).toBe(text);
});
