/**
 * Review sampling: with the thread setting on, a server's sampling request waits on its tool
 * row; the user edits it and approves, and the model answers the edited request. (Rejecting
 * is covered against the real server in tests/integration/mcp/everything.test.ts.)
 */
import type { Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';

const row = (page: Page, name: string | RegExp) => page.getByRole('treeitem', { name });

test('a sampling request waits for review; edited and approved, the model answers the edited request', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread MCP agent, step by step' }).click();
  await page.getByRole('checkbox', { name: 'Review sampling' }).check();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(row(page, 'tool trigger-sampling-request, awaiting input')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Run all tools' }).click();

  const review = page.getByLabel('Sampling review');
  const box = page.getByRole('textbox', { name: 'Sampling request' });
  await expect(box).toContainText('Write a haiku about the tide coming in.', { timeout: 30_000 });
  await expect(row(page, 'tool get-sum, completed')).toContainText('The sum of 17 and 25 is 42.');
  await shot(page, '18-sampling-review');
  // Edit the prompt: the scripted model answers requests whose text matches its script, so the
  // answer shows which text the model got.
  const text = await box.innerText();
  await box.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text.replace('Write a haiku about the tide coming in.', 'Write a haiku about snow instead.'));
  await review.getByRole('button', { name: 'Approve' }).click();
  const sampling = row(page, /^sampling .*, completed$/);
  await expect(sampling).toBeVisible({ timeout: 30_000 });
  await expect(row(page, 'tool trigger-sampling-request, completed')).toBeVisible();

  // Open the sampling node: its input is the edited request.
  await sampling.click();
  await expect(page.getByRole('textbox', { name: 'Node input' })).toContainText('Write a haiku about snow instead.');
});
