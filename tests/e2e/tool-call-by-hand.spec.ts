/**
 * A tool call added by hand to a test case ("what if the model had called get-sum with these
 * arguments?"): in the example thread, remove the model's get-sum call, add one of our own,
 * see the schema check on its empty arguments, fill them in, run it with Run tool (the other
 * call stays pending), read the result, then undo back to the model's call. In a thread with
 * no tools, the tool of the new call is typed (a name the model APIs would refuse is held back).
 */
import type { Locator, Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';

/** Replaces the text of a CodeMirror editor (its content element is the labelled textbox). */
async function setEditorText(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

test('add a tool call by hand, set its arguments, run it, undo it', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread MCP agent, step by step' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('treeitem', { name: 'tool get-sum, awaiting input' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled();

  const reply = page.getByLabel('assistant message 2', { exact: true });
  const card = reply.getByLabel('tool call get-sum', { exact: true });
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  await expect(card).toHaveCount(1);

  // Remove the model's get-sum call: its card goes, the other call stays.
  await reply.getByRole('button', { name: 'Remove tool call get-sum' }).click();
  await expect(card).toHaveCount(0);
  await expect(reply.getByLabel('tool call trigger-sampling-request', { exact: true })).toBeVisible();

  // Add one by hand: get-sum, from the thread's tools, with arguments {} checked against its schema.
  const tool = reply.getByRole('combobox', { name: 'Tool of the new call' });
  await tool.click();
  await expect(page.getByRole('option', { name: 'trigger-sampling-request' })).toBeVisible();
  await page.getByRole('option', { name: 'get-sum' }).click();
  await expect(tool).toHaveValue('get-sum');
  await reply.getByRole('button', { name: 'Add tool call' }).click();
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('awaiting input');
  await expect(card).toContainText('is missing required property “a”');
  await expect(page.getByRole('button', { name: 'Run all tools', exact: true })).toHaveText('Run all tools (2)');

  await setEditorText(page, card.getByRole('textbox', { name: 'Arguments of get-sum' }), '{"a": 2, "b": 3}');
  await expect(card).not.toContainText('missing required property');
  await page.waitForTimeout(900); // typing merges into one undo step after ~800 ms
  await reply.getByRole('button', { name: 'Add tool call' }).scrollIntoViewIfNeeded();
  await shot(page, '30-tool-call-by-hand');

  // Run tool runs this call only; the sampling call still waits.
  await card.getByRole('button', { name: 'Run tool' }).click();
  await expect(page.getByRole('treeitem', { name: 'tool get-sum, completed' })).toContainText('The sum of 2 and 3 is 5.', { timeout: 30_000 });
  await expect(card.getByRole('textbox', { name: 'Result of get-sum' })).toContainText('The sum of 2 and 3 is 5.');
  await expect(reply.getByLabel('tool call trigger-sampling-request', { exact: true })).toContainText('awaiting input');
  await expect(undo).toBeEnabled();

  // Undo: the run's result, then the arguments, then the call itself; once more, the model's call is back.
  await undo.click();
  await expect(card.getByRole('textbox', { name: 'Result of get-sum' })).not.toContainText('The sum of');
  await expect(card).toContainText('awaiting input');
  await undo.click();
  await expect(card).toContainText('is missing required property “a”');
  await undo.click();
  await expect(card).toHaveCount(0);
  await undo.click();
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('textbox', { name: 'Arguments of get-sum' })).toContainText('17');
});

test('with no tools in the thread, the new call takes a typed tool name', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'New thread' }).click();
  await page.getByRole('button', { name: 'Add assistant message' }).click();
  const reply = page.getByLabel('assistant message 1', { exact: true });
  const add = reply.getByRole('button', { name: 'Add tool call' });
  await expect(add).toBeDisabled();
  // A name the model APIs would refuse is held back, saying why.
  const name = reply.getByRole('textbox', { name: 'Tool of the new call' });
  await name.fill('lookup weather');
  await expect(add).toBeDisabled();
  await expect(reply.getByText('A tool name may use letters, digits, "_" and "-" only, not spaces.')).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await name.fill('search_web');
  await expect(reply.getByText(/A tool name may use/)).toHaveCount(0);
  await add.click();
  const card = reply.getByLabel('tool call search_web', { exact: true });
  await expect(card).toContainText('no tool named “search_web” in this thread');
  await expect(card).toContainText('awaiting input');
  await expect(reply.getByRole('textbox', { name: 'Tool of the new call' })).toHaveValue('');

  // Removing it is one undo step too.
  await card.getByRole('button', { name: 'Remove tool call search_web' }).click();
  await expect(card).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(card).toHaveCount(1);

  // A second call of the same tool: each call's controls are named apart ("search_web 2").
  await name.fill('search_web');
  await add.click();
  await expect(reply.getByLabel('tool call search_web 1', { exact: true })).toHaveCount(1);
  const second = reply.getByLabel('tool call search_web 2', { exact: true });
  await expect(second.getByRole('textbox', { name: 'Arguments of search_web 2' })).toBeVisible();
  await second.getByRole('button', { name: 'Remove tool call search_web 2' }).click();
  await expect(card).toHaveCount(1);
});
