/**
 * Compare runs as a manual evaluation (LLM Space's verdicts and rubrics): two runs of one
 * thread with different answers, their word-level difference and token difference, a verdict,
 * a note and two rubric criteria scored per run with the B−A delta — saved with the thread
 * (its file holds them) and shown again when the pair is compared again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';

async function pick(page: Page, select: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: select, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('verdict, note and rubric on two compared runs, stored with the thread', async ({ page, serve }) => {
  const file = path.join(serve.home, 'workspace', 'Capital.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      id: crypto.randomUUID(),
      title: 'Capital',
      model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 500 }, script: [{ text: 'The capital is Paris.' }, { text: 'The capital of France is Paris, on the Seine.' }] },
      context: { systemPrompt: '', tools: [], messages: [{ id: crypto.randomUUID(), role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] }] },
      runRefs: [],
    }),
  );
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Capital', exact: true }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('treeitem', { name: 'run step, completed' })).toBeVisible();
  // A second question, a second run (the script's next answer).
  await page.getByRole('button', { name: 'Add user message' }).click();
  await page.getByRole('textbox', { name: 'Text of message 3', exact: true }).click();
  await page.keyboard.insertText('Say more.');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('tab', { name: 'Run history' }).click();
  const picks = page.getByRole('checkbox', { name: /^Pick run \S+ to compare$/ });
  await expect(picks).toHaveCount(2);
  // Run history lists the newest first: A is the first run, B the second.
  await picks.nth(1).check();
  await picks.nth(0).check();
  await page.getByRole('button', { name: 'Compare runs' }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare runs' });

  // The word-level difference of the final messages, and B − A tokens.
  const diff = dialog.getByLabel('Final message difference');
  await expect(diff).toHaveText('The capital of France is Paris.Paris, on the Seine.');
  await expect(diff.locator('ins')).toHaveText(['of France ', 'Paris, on the Seine.']);
  await expect(diff.locator('del')).toHaveText(['Paris.']);
  await expect(dialog.getByRole('cell', { name: 'tokens difference' })).toHaveText(/^\+\d+$/);

  // Saving without a verdict names what is missing.
  await dialog.getByRole('button', { name: 'Save evaluation' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Pick a verdict.');
  await dialog.getByText('B better', { exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Note' }).fill('B names the country.');
  await dialog.getByRole('button', { name: 'Add criterion' }).click();
  await dialog.getByRole('button', { name: 'Add criterion' }).click();
  await dialog.getByRole('textbox', { name: 'Criterion 1' }).fill('Correct');
  await dialog.getByRole('textbox', { name: 'Criterion 2' }).fill('Concise');
  await pick(page, 'Score of run A on criterion 1', '2');
  await pick(page, 'Score of run B on criterion 1', '5');
  await pick(page, 'Score of run A on criterion 2', '4');
  await pick(page, 'Score of run B on criterion 2', '3');
  await expect(dialog.getByRole('cell', { name: 'B−A on criterion 1' })).toHaveText('+3');
  await expect(dialog.getByRole('cell', { name: 'B−A on criterion 2' })).toHaveText('-1');
  await dialog.getByRole('button', { name: 'Save evaluation' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved with the thread.');
  await shot(page, 'eval-verdict');

  // The thread file holds it (verdict, note, rubric, scores per run).
  await expect
    .poll(() => JSON.parse(readFileSync(file, 'utf8')).evaluations?.[0], { timeout: 15_000 })
    .toMatchObject({
      verdict: 'b',
      note: 'B names the country.',
      rubric: { criteria: [{ id: 'c1', name: 'Correct' }, { id: 'c2', name: 'Concise' }] },
      runScores: [{ scores: [{ criterionId: 'c1', score: 2 }, { criterionId: 'c2', score: 4 }] }, { scores: [{ criterionId: 'c1', score: 5 }, { criterionId: 'c2', score: 3 }] }],
    });

  // Compared again, the pair shows its evaluation.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Compare runs' }).click();
  await expect(dialog.getByRole('radio', { name: 'B better' })).toBeChecked();
  await expect(dialog.getByRole('textbox', { name: 'Note' })).toHaveValue('B names the country.');
  await expect(dialog.getByRole('cell', { name: 'B−A on criterion 1' })).toHaveText('+3');
});
