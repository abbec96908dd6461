/**
 * Two windows on one thread, typing into different fields at the same time: neither loses a
 * character (an edit made on an older version is replayed on the newer one), and each window
 * ends showing both edits.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';

test('concurrent typing in two windows keeps every character of both', async ({ page, serve, context }) => {
  const other = await context.newPage();
  for (const p of [page, other]) {
    await p.goto(serve.url);
    await p.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
  }
  const prompt = page.getByRole('textbox', { name: 'System prompt' });
  const message = other.getByRole('textbox', { name: 'Text of message 1' });
  await prompt.click();
  await page.keyboard.press('ControlOrMeta+End');
  await message.click();
  await other.keyboard.press('ControlOrMeta+End');
  for (let i = 0; i < 8; i++) {
    await prompt.pressSequentially(`P${i}`);
    await message.pressSequentially(`Q${i}`);
  }
  const wantPrompt = 'You are an agent that uses tools until the task is done.P0P1P2P3P4P5P6P7';
  const wantMessage = 'Work out the total of 1200 and 345, then confirm it with the echo tool.Q0Q1Q2Q3Q4Q5Q6Q7';
  for (const p of [page, other]) {
    await expect(p.getByRole('textbox', { name: 'System prompt' })).toHaveText(wantPrompt);
    await expect(p.getByRole('textbox', { name: 'Text of message 1' })).toHaveText(wantMessage);
  }
  // And on disk, after the debounced save.
  await expect
    .poll(() => {
      const t = JSON.parse(readFileSync(path.join(serve.home, 'workspace', 'ReAct loop with tools.json'), 'utf8'));
      return [t.context.systemPrompt, t.context.messages[0].content[0].text];
    })
    .toEqual([wantPrompt, wantMessage]);
});
