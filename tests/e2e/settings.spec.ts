/**
 * Settings: add an MCP server from the UI (written to settings/mcp.json), test it against the
 * real server-filesystem, import tools from it into a thread; a provider key is never shown whole;
 * a provider added in Settings is removed (after a confirmation) from Settings, and the playground
 * marks it "not configured" for a thread that still uses it; typing a provider's id shows its API.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { test, expect, shot } from './fixtures';

const FILESYSTEM = path.resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/**
 * Presses "Remove <name>" in the Settings `dialog`, checks that the confirmation it asks says
 * `warning`, and cancels; returns the confirmation group (gone now) to press Remove in later.
 */
async function removeThenCancel(dialog: Locator, name: string, warning: string): Promise<Locator> {
  await dialog.getByRole('button', { name: `Remove ${name}` }).click();
  const confirm = dialog.getByRole('group', { name: `Confirm removing ${name}` });
  await expect(confirm).toContainText(warning);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  return confirm;
}

test('add and test an MCP server, import its tools into a thread; provider keys stay masked', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'MCP servers' }).click();
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('files');
  await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(process.execPath);
  await dialog.getByRole('textbox', { name: 'Arguments', exact: true }).fill(`${FILESYSTEM} ${serve.home}`);
  await dialog.getByRole('button', { name: 'Save server' }).click();
  await expect(dialog.getByText('Saved "files"')).toBeVisible();
  const saved = JSON.parse(readFileSync(path.join(serve.home, 'settings', 'mcp.json'), 'utf8'));
  expect(saved.mcpServers.files).toEqual({ command: process.execPath, args: [FILESYSTEM, serve.home] });
  expect(saved.mcpServers.everything).toBeTruthy(); // the seeded server is kept

  // Saving under a name that exists asks first; Cancel keeps the entry, confirming replaces it.
  // Quotes group an argument the way a shell does.
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('files');
  await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(process.execPath);
  await dialog.getByRole('textbox', { name: 'Arguments', exact: true }).fill(`'${FILESYSTEM}' "${serve.home}"`);
  await dialog.getByLabel(/^Environment/).fill('STEPWISE_E2E=replaced');
  await dialog.getByRole('button', { name: 'Save server' }).click();
  const replace = dialog.getByRole('group', { name: 'Confirm replacing files' });
  await expect(replace).toContainText('Replace the existing server “files”?');
  await replace.getByRole('button', { name: 'Cancel' }).click();
  await expect(replace).toHaveCount(0);
  const mcpFiles = () => JSON.parse(readFileSync(path.join(serve.home, 'settings', 'mcp.json'), 'utf8')).mcpServers.files;
  expect(mcpFiles().env).toBeUndefined();
  await dialog.getByRole('button', { name: 'Save server' }).click();
  await replace.getByRole('button', { name: 'Replace files' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('');
  expect(mcpFiles()).toEqual({ command: process.execPath, args: [FILESYSTEM, serve.home], env: { STEPWISE_E2E: 'replaced' } });

  await dialog.getByRole('button', { name: 'Test files' }).click();
  await expect(dialog.getByText(/OK: Connected to "files".*\d+ tools/)).toBeVisible({ timeout: 30_000 });
  await shot(page, '17-settings-mcp');

  // A bad entry is refused with the field named.
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('bad name!');
  await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill('x');
  await dialog.getByRole('button', { name: 'Save server' }).click();
  await expect(page.getByText(/Server name "bad name!" is not valid/).first()).toBeVisible();

  await dialog.getByRole('tab', { name: 'Providers' }).click();
  await dialog.getByRole('textbox', { name: 'Id', exact: true }).fill('openai');
  await dialog.getByLabel(/API key/).fill('sk-test-0123456789abcdef');
  await dialog.getByRole('button', { name: 'Save provider' }).click();
  await expect(dialog.getByText('sk-…cdef')).toBeVisible();
  await expect(dialog.getByText('sk-test-0123456789abcdef')).toHaveCount(0);
  await dialog.getByRole('tab', { name: 'App' }).click();
  await expect(dialog.getByText(path.join(serve.home, 'workspace'), { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');

  // Import a tool from the new server into a thread.
  await page.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
  await page.getByRole('button', { name: 'Import from MCP server' }).click();
  const importer = page.getByRole('dialog');
  await importer.getByRole('combobox').first().click();
  await page.getByRole('option', { name: 'files' }).click();
  await importer.getByText('list_allowed_directories').click();
  await importer.getByRole('button', { name: 'Add 1 tool' }).click();
  await expect(page.getByText('list_allowed_directories (files)')).toBeVisible();

  // Removing a server asks first; Cancel keeps it, confirming takes it out of mcp.json.
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog');
  await settings.getByRole('tab', { name: 'MCP servers' }).click();
  const confirm = await removeThenCancel(settings, 'files', 'Threads whose tools use it will get an error');
  const mcpJson = () => JSON.parse(readFileSync(path.join(serve.home, 'settings', 'mcp.json'), 'utf8')).mcpServers;
  expect(mcpJson().files).toBeTruthy();
  await settings.getByRole('button', { name: 'Remove files' }).click();
  await confirm.getByRole('button', { name: 'Remove files' }).click();
  await expect(settings.getByText('files', { exact: true })).toHaveCount(0);
  expect(mcpJson().files).toBeUndefined();
  expect(mcpJson().everything).toBeTruthy();
});

test('remove a provider added in Settings: asks first, then it is gone with its key from Settings and the playground', async ({ page, serve }) => {
  const providersJson = () => readFileSync(path.join(serve.home, 'settings', 'providers.json'), 'utf8');
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
  // The playground's provider picker, opened: its options once the built-in ones are shown.
  const providerOptions = async () => {
    await page.getByRole('combobox', { name: 'Provider', exact: true }).click();
    const listbox = page.getByRole('listbox');
    await expect(listbox.getByRole('option', { name: 'scripted', exact: true })).toBeVisible();
    return listbox;
  };

  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('textbox', { name: 'Id', exact: true }).fill('local-llm');
  await dialog.getByRole('textbox', { name: 'Base URL (optional)' }).fill('http://127.0.0.1:11434/v1');
  await dialog.getByLabel(/API key/).fill('sk-local-0123456789abcdef');
  await dialog.getByRole('button', { name: 'Save provider' }).click();
  await expect(dialog.getByRole('cell', { name: 'local-llm', exact: true })).toBeVisible();
  expect(providersJson()).toContain('sk-local-0123456789abcdef');
  // Only the provider added here can be removed, not the built-ins.
  await expect(dialog.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // The thread uses it.
  await (await providerOptions()).getByRole('option', { name: 'local-llm', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Provider', exact: true })).toHaveValue('local-llm');
  await expect(page.getByRole('status', { name: 'Provider not configured' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Settings' }).click();
  const confirm = await removeThenCancel(dialog, 'local-llm', 'Remove “local-llm” and its saved API key');
  await expect(dialog.getByRole('cell', { name: 'local-llm', exact: true })).toBeVisible();
  expect(providersJson()).toContain('local-llm');

  await dialog.getByRole('button', { name: 'Remove local-llm' }).click();
  await confirm.getByRole('button', { name: 'Remove local-llm' }).click();
  await expect(dialog.getByRole('cell', { name: 'local-llm', exact: true })).toHaveCount(0);
  await expect(dialog.getByRole('cell', { name: 'anthropic', exact: true })).toBeVisible();
  expect(providersJson()).not.toContain('local-llm');
  expect(providersJson()).not.toContain('sk-local-0123456789abcdef');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // The thread still names it: the picker marks it, and a warning says where to add it.
  const options = await providerOptions();
  await expect(options.getByRole('option', { name: 'local-llm', exact: true })).toHaveCount(0);
  await expect(options.getByRole('option', { name: 'local-llm (not configured)', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('combobox', { name: 'Provider', exact: true })).toHaveValue('local-llm (not configured)');
  await expect(page.getByRole('status', { name: 'Provider not configured' })).toContainText('Provider “local-llm” is not configured');
  await expect(page.getByRole('status', { name: 'Provider not configured' })).toContainText('Settings → Providers');

  // A built-in provider cannot be removed, but a key saved for it can be forgotten (Reset).
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(dialog.getByRole('button', { name: 'Reset openai' })).toHaveCount(0);
  // Typing an existing provider's id shows its API; saving a key keeps it.
  const api = dialog.getByRole('combobox', { name: 'API', exact: true });
  await expect(api).toHaveValue('OpenAI Chat Completions (and compatible servers)');
  await dialog.getByRole('textbox', { name: 'Id', exact: true }).fill('openai');
  await expect(api).toHaveValue('OpenAI Responses');
  await dialog.getByLabel(/API key/).fill('sk-openai-0123456789abcdef');
  await dialog.getByRole('button', { name: 'Save provider' }).click();
  await expect(dialog.getByRole('row', { name: /openai/ }).first()).toContainText('cdef');
  await expect(dialog.getByRole('row', { name: /openai/ }).first()).toContainText('openai-responses');
  expect(JSON.parse(providersJson()).providers).toEqual([expect.objectContaining({ id: 'openai', api: 'openai-responses' })]);
  await dialog.getByRole('button', { name: 'Reset openai' }).click();
  const reset = dialog.getByRole('group', { name: 'Confirm resetting openai' });
  await expect(reset).toContainText('Forget the API key, base URL and API choice saved for “openai”');
  await expect(reset).toContainText('goes back to its defaults');
  await reset.getByRole('button', { name: 'Reset openai' }).click();
  await expect(dialog.getByRole('button', { name: 'Reset openai' })).toHaveCount(0);
  await expect(dialog.getByRole('cell', { name: 'openai', exact: true })).toBeVisible();
  expect(providersJson()).not.toContain('sk-openai-0123456789abcdef');
});
