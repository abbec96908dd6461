/**
 * Issue 16 [ux] item 10: a side-by-side playground layout — the thread's settings (model,
 * tools, system prompt, variables) beside the message list, each scrolling on its own — toggled
 * in the header and remembered across a reload.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';

async function openLong(page: Page): Promise<void> {
  await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread Long talk', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Long talk', exact: true })).toBeVisible();
}

test('settings and messages side by side, each scrolling on its own; the choice survives a reload', async ({ page, serve }) => {
  const messages = Array.from({ length: 40 }, (_, i) => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: `Message number ${i}.` }] }));
  const thread = { version: 1, id: crypto.randomUUID(), title: 'Long talk', model: { provider: 'scripted', id: 'scripted', params: {} }, context: { systemPrompt: 'Be brief.', tools: [], messages }, runRefs: [] };
  writeFileSync(path.join(serve.home, 'workspace', 'Long talk.json'), JSON.stringify(thread));
  await page.goto(serve.url);
  await openLong(page);

  const toggle = page.getByRole('button', { name: 'Side-by-side layout' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const settings = page.getByRole('region', { name: 'Thread settings' });
  const list = page.getByRole('region', { name: 'Message list' });
  await expect(settings.getByRole('region', { name: 'Model' })).toBeVisible();
  await expect(settings.getByRole('region', { name: 'System prompt' })).toBeVisible();
  await expect(list.getByText('Message number 0.', { exact: true })).toBeVisible();
  const [a, b] = [(await settings.boundingBox())!, (await list.boundingBox())!];
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + 1); // settings on the left, messages on the right
  expect(Math.abs(a.y - b.y)).toBeLessThan(2); // on the same row

  // Scrolling the messages to the last one leaves the settings where they are. The list is
  // virtualised: the last message is mounted once its scroll area nears the end.
  const scroller = list.locator('[data-message-scroller]');
  await expect(async () => {
    await scroller.evaluate((el) => { const e = el as unknown as { scrollTop: number; scrollHeight: number }; e.scrollTop = e.scrollHeight; });
    await expect(list.getByText('Message number 39.', { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(list.getByText('Message number 39.', { exact: true })).toBeInViewport();
  await expect(list.getByText('Message number 0.', { exact: true })).not.toBeInViewport();
  await expect(settings.getByText('Model', { exact: true })).toBeInViewport();
  await shot(page, '70-side-by-side');

  // Remembered.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Side-by-side layout' })).toHaveAttribute('aria-pressed', 'true');
  await openLong(page);
  await expect(page.getByRole('region', { name: 'Message list' }).getByText('Message number 0.', { exact: true })).toBeVisible();

  // And back to one column.
  await page.getByRole('button', { name: 'Side-by-side layout' }).click();
  await expect(page.getByRole('region', { name: 'Message list' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Model' })).toBeVisible();
});
