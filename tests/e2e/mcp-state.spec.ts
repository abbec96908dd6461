/**
 * Issue 16 [ux] item 8: MCP servers show their real state without a Test — Settings reads
 * "connected" for a working server and "failed" with the reason for a broken one, and the
 * import dialog opens with the first server picked, its state in the picker, its tools listed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, shot } from './fixtures';

test('Settings and the import dialog show each server connected or failed (with why) before any Test; the import dialog picks the first server', async ({ page, serve }) => {
  const file = path.join(serve.home, 'settings', 'mcp.json');
  const config = JSON.parse(readFileSync(file, 'utf8'));
  config.mcpServers['zz-missing'] = { command: 'stepwise-no-such-command-xyz' };
  writeFileSync(file, JSON.stringify(config, null, 2));

  await page.goto(serve.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'MCP servers' }).click();
  await expect(dialog.getByLabel('everything: connected')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByLabel('zz-missing: failed')).toBeVisible({ timeout: 30_000 });
  // The reason is there to read, not only a red word.
  await expect(dialog.getByText(/stepwise-no-such-command-xyz.*command not found|command not found.*stepwise-no-such-command-xyz/)).toBeVisible();
  await expect(dialog.getByText('disconnected')).toHaveCount(0);
  await shot(page, '73-mcp-server-states');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread ReAct loop with tools', exact: true }).click();
  await page.getByRole('button', { name: 'Import from MCP server' }).click();
  const importer = page.getByRole('dialog', { name: 'Import tools from an MCP server' });
  // Picked at once, with its state; its tools are listed without a click.
  await expect(importer.getByRole('textbox', { name: 'Server' }).or(importer.getByRole('combobox', { name: 'Server' })).first()).toHaveValue(/^everything \(bundled, connected\)$/, { timeout: 30_000 });
  await expect(importer.getByText('get-sum', { exact: true })).toBeVisible({ timeout: 30_000 });
});
