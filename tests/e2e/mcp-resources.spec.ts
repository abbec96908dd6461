/**
 * Issue 21 [mcp2] items 1-2 in the browser, against the bundled server-everything: browse its
 * resources and read one (markdown shown as text), attach it to the thread's user message,
 * fill a resource template's variable from the server's completion and read what it expands
 * to, then fill a prompt's argument and insert its messages — one edit, which one Undo takes back.
 */
import { test, expect, shot } from './fixtures';

test('browse MCP resources, attach one to a message, read a template, insert a prompt', async ({ page, serve }) => {
  void serve;
  await page.goto(serve.url);
  await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread ReAct loop with tools', exact: true }).click();
  const messages = page.getByRole('region', { name: /^Messages \(\d+\)$/ });
  await page.getByRole('button', { name: 'MCP resources and prompts' }).click();
  const dialog = page.getByRole('dialog', { name: 'MCP resources and prompts' });

  // Resources: listed, read by a click, shown by type.
  const doc = 'demo://resource/static/document/instructions.md';
  await dialog.getByRole('listbox', { name: 'Resources' }).getByRole('option', { name: /instructions\.md/ }).click({ timeout: 30_000 });
  await expect(dialog.getByLabel(`Resource ${doc}`, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByLabel(`Resource ${doc}`, { exact: true }).getByText('text/markdown')).toBeVisible();
  await dialog.getByRole('button', { name: 'Subscribe' }).click();
  await expect(dialog.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await shot(page, '80-mcp-resource-read');
  await dialog.getByRole('button', { name: 'Attach to user message' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(messages.getByLabel(`Resource ${doc}`, { exact: true })).toBeVisible();

  // Templates: the variable is completed by the server, the template expanded and read.
  await page.getByRole('button', { name: 'MCP resources and prompts' }).click();
  await dialog.getByRole('tab', { name: 'Templates' }).click();
  await dialog.getByRole('textbox', { name: 'Template' }).or(dialog.getByRole('combobox', { name: 'Template' })).first().click();
  await page.getByRole('option', { name: /demo:\/\/resource\/dynamic\/text\/\{resourceId\}/ }).click();
  await dialog.getByRole('combobox', { name: 'resourceId' }).fill('5');
  await page.getByRole('option', { name: '5', exact: true }).click({ timeout: 15_000 });
  await expect(dialog.getByLabel('Expanded URI')).toHaveText('demo://resource/dynamic/text/5');
  await dialog.getByRole('button', { name: 'Read', exact: true }).click();
  await expect(dialog.getByText(/^Resource 5: This is a plaintext resource/)).toBeVisible({ timeout: 15_000 });

  // Prompts: the argument filled, the messages inserted as one edit.
  await dialog.getByRole('tab', { name: 'Prompts' }).click();
  await dialog.getByRole('textbox', { name: 'Prompt' }).or(dialog.getByRole('combobox', { name: 'Prompt' })).first().click();
  await page.getByRole('option', { name: 'Arguments Prompt (args-prompt)' }).click();
  await expect(dialog.getByRole('button', { name: 'Insert messages' })).toBeDisabled();
  await dialog.getByRole('combobox', { name: 'city' }).fill('Paris');
  await dialog.getByRole('button', { name: 'Insert messages' }).click();
  await expect(dialog).toHaveCount(0);
  const inserted = messages.getByText("What's weather in Paris?");
  await expect(inserted).toBeVisible();
  await shot(page, '81-mcp-prompt-inserted');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(inserted).toHaveCount(0);
  await expect(messages.getByLabel(`Resource ${doc}`, { exact: true })).toBeVisible();
});
