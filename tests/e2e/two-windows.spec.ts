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

test('two windows typing into the same field at once end showing the same text, with every character of both', async ({ page, serve, context }) => {
  const other = await context.newPage();
  for (const p of [page, other]) {
    await p.goto(serve.url);
    await p.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
  }
  const start = 'You are an agent that uses tools until the task is done.';
  const fields = [page, other].map((p) => p.getByRole('textbox', { name: 'System prompt' }));
  for (const [i, p] of [page, other].entries()) {
    await fields[i].click();
    await p.keyboard.press('ControlOrMeta+End');
  }
  // Both windows type at the end of the prompt, interleaved key by key, faster than a round
  // trip; a change from the other window never moves the cursor, so each keeps typing at the end.
  const typed = ['', ''];
  for (let i = 0; i < 10; i++) {
    for (const w of [0, 1]) {
      const key = w === 0 ? 'abcdefghij'[i] : 'KLMNOPQRST'[i];
      typed[w] += key;
      await fields[w].pressSequentially(key);
    }
  }
  // Settled: both show the same text, which holds each window's keys once and in order.
  await expect
    .poll(async () => {
      const [a, b] = [await fields[0].textContent(), await fields[1].textContent()];
      return a === b && a!.length === start.length + 20 ? 'same' : `${a} | ${b}`;
    }, { timeout: 10_000 })
    .toBe('same');
  const shown = (await fields[0].textContent())!;
  expect(shown.startsWith(start)).toBe(true);
  const added = shown.slice(start.length);
  for (const t of typed) expect([...added].filter((c) => t.includes(c)).join('')).toBe(t);
  // The file on disk says the same after the debounced save; a reload shows it too.
  await expect.poll(() => JSON.parse(readFileSync(path.join(serve.home, 'workspace', 'ReAct loop with tools.json'), 'utf8')).context.systemPrompt).toBe(shown);
  await other.reload();
  await other.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
  await expect(other.getByRole('textbox', { name: 'System prompt' })).toHaveText(shown);
});
