/**
 * Import from the UI: JSON pasted in the Import dialog, and a file dropped on the workspace
 * panel. The result names the detected format and lists what could not be kept; the imported
 * thread opens, documents and all.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/threads');
/** The browser's DataTransfer, inside `evaluateHandle` (Node's types do not declare it). */
type DataTransferCtor = new () => { items: { add(f: unknown): void } };

test('paste an Anthropic request with documents: format named, what was not kept listed, documents shown', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await dialog.getByRole('textbox', { name: 'JSON to import' }).fill(readFileSync(path.join(FIX, 'anthropic-documents.json'), 'utf8'));
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toContainText('Detected format: Anthropic Messages request');
  await expect(dialog.getByRole('list', { name: 'Not kept' })).toContainText('/system/0/cache_control: cache_control on the system prompt is not kept');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const tree = page.getByRole('tree', { name: 'Workspace' });
  await expect(tree.getByRole('treeitem', { name: 'thread What color is the grass and sky?' })).toBeVisible();
  // The documents are in the message: name, type and size; a text document's text.
  const pdf = page.getByRole('group', { name: 'document Q3 report' });
  await expect(pdf).toContainText('PDF');
  await expect(pdf).toContainText(/\d+ B/);
  await expect(page.getByRole('group', { name: 'document My Document' })).toContainText('The grass is green. The sky is blue.');
  await expect(page.getByRole('group', { name: /^document https:\/\/assets\.anthropic\.com\// })).toContainText('URL');
});

test('drop an LLM Space file on the workspace: imported with its run history, format and losses shown', async ({ page, serve }) => {
  await page.goto(serve.url);
  const text = readFileSync(path.join(FIX, 'llmspace-v4.json'), 'utf8');
  const panel = page.getByLabel('Workspace panel', { exact: true });
  const dataTransfer = await page.evaluateHandle((t) => {
    const dt = new (globalThis as unknown as { DataTransfer: DataTransferCtor }).DataTransfer();
    dt.items.add(new File([t], 'triage.json', { type: 'application/json' }));
    return dt;
  }, text);
  await panel.dispatchEvent('dragover', { dataTransfer });
  await panel.dispatchEvent('drop', { dataTransfer });
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await expect(dialog).toContainText('Detected format: LLM Space thread file');
  await expect(dialog).toContainText('with 2 run records');
  await expect(dialog.getByRole('list', { name: 'Not kept' })).toContainText('/context/variables/current_date: LLM Space computes currentDate');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread Screenshot triage' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Screenshot triage' })).toBeVisible();

  // A file that is no thread: the error says what and where, nothing is created.
  const bad = await page.evaluateHandle(() => {
    const dt = new (globalThis as unknown as { DataTransfer: DataTransferCtor }).DataTransfer();
    dt.items.add(new File(['{"messages": ['], 'broken.json', { type: 'application/json' }));
    return dt;
  });
  await panel.dispatchEvent('drop', { dataTransfer: bad });
  await expect(page.getByRole('dialog', { name: 'Import' }).getByRole('alert')).toContainText('"broken.json" is not JSON: line 1, column 15');
});
