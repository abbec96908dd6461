/**
 * The playground from an empty thread: system prompt with a {{variable}}, the scripted
 * model's script, messages (add, change role, reorder, delete), Mod+Enter to run, the
 * detail panel showing the prompt as sent, Mod+Z undoing, and a typed tool result marked
 * as error.
 */
import type { Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';

async function typeInto(page: Page, name: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name, exact: true }).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

test('build a thread from scratch, run it with the keyboard, inspect and undo', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'New thread' }).click();
  await expect(page.getByRole('heading', { name: 'Untitled thread' })).toBeVisible();

  await typeInto(page, 'System prompt', 'You are {{persona}}.');
  await expect(page.getByText('Not defined, sent as written: {{persona}}')).toBeVisible();
  await page.getByLabel(/^Variables/).fill('persona=a pirate');
  await expect(page.getByText(/Not defined, sent as written/)).toHaveCount(0);

  await typeInto(page, 'Scripted model script', JSON.stringify([{ text: 'Arr, hello.', toolCalls: [{ name: 'lookup', arguments: { q: 'gold' } }] }]));

  await page.getByRole('button', { name: 'Add user message' }).click();
  await typeInto(page, 'Text of message 1', 'second');
  await page.getByRole('button', { name: 'Add user message' }).click();
  await typeInto(page, 'Text of message 2', 'Say hello.');
  // Reorder, then delete the stray one, then make sure the last message is the user's.
  await page.getByRole('button', { name: 'Move message 2 up' }).click();
  await expect(page.getByRole('textbox', { name: 'Text of message 1', exact: true })).toHaveText('Say hello.');
  await page.getByRole('button', { name: 'Delete message 2' }).click();
  await expect(page.getByLabel('user message 2')).toHaveCount(0);

  // A script that does not parse yet holds Run back and keeps its text; fixed, Run is back.
  const script = page.getByRole('textbox', { name: 'Scripted model script' });
  const good = await script.innerText();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await typeInto(page, 'Scripted model script', good.slice(0, -1));
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await expect(script).toContainText('Arr, hello.');
  await typeInto(page, 'Scripted model script', good);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();

  // Mod+Enter runs the step.
  await page.getByRole('textbox', { name: 'Text of message 1', exact: true }).click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByRole('treeitem', { name: /^tool lookup, awaiting input$/ })).toBeVisible();

  // The detail of the model call shows the prompt as sent, with the variable filled in.
  await page.getByRole('treeitem', { name: /^llm scripted, completed$/ }).click();
  await expect(page.getByRole('textbox', { name: 'Node input' })).toContainText('You are a pirate.');
  await shot(page, '18-playground');

  // Type a result for the tool call and mark it as error.
  await typeInto(page, 'Result of lookup', 'No gold here.');
  await page.getByRole('checkbox', { name: 'Mark as error' }).check();
  await expect(page.getByText('result: error')).toBeVisible();

  // Mod+Z undoes the last edit (the error mark), then the result text.
  await page.getByRole('heading', { name: 'Untitled thread' }).click();
  await page.keyboard.press('ControlOrMeta+z');
  await expect(page.getByText('result: error')).toHaveCount(0);
});
