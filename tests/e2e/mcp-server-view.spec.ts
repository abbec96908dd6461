/**
 * Issue 21 [mcp2] item 5: Settings → MCP servers → Details shows a server's live status, what
 * `initialize` answered (server info, capabilities, instructions), its protocol log (every
 * message in and out) with filters, and roots edited there announced with roots/list_changed.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, shot } from './fixtures';

test('the server view: status, server info, capabilities, instructions, a filtered protocol log and editable roots', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'MCP servers' }).click();
  await expect(dialog.getByLabel('everything: connected')).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Details of everything' }).click();
  const details = dialog.getByRole('region', { name: 'Details of everything' });
  await expect(details.getByLabel('Server info')).toContainText(/Server: .+ \d+\.\d+/);
  const caps = details.getByLabel('Capabilities');
  await expect(caps.getByText('tools', { exact: true })).toBeVisible();
  await expect(caps.getByText('prompts', { exact: true })).toBeVisible();
  await expect(details.getByLabel('Instructions')).not.toBeEmpty();

  const log = details.getByRole('region', { name: 'Protocol log of everything' });
  await expect(log.getByRole('button', { name: /^→ initialize #\d+, \d+ bytes$/ })).toBeVisible();
  await expect(log.getByRole('button', { name: /^← response #\d+, \d+ bytes$/ }).first()).toBeVisible();
  // Filters: a method keeps its requests and their responses; a direction keeps only it.
  await log.getByRole('textbox', { name: 'Method' }).fill('initialize');
  await expect(log.getByRole('button', { name: /^→ initialize/ })).toHaveCount(1);
  await expect(log.getByRole('button', { name: /^← response/ })).toHaveCount(1);
  await expect(log.getByRole('button', { name: /notifications\/initialized/ })).toHaveCount(0);
  await log.getByRole('textbox', { name: 'Method' }).fill('');
  await log.getByText('Received').click();
  await expect(log.getByRole('button', { name: /^→/ })).toHaveCount(0);
  await expect(log.getByRole('button', { name: /^←/ }).first()).toBeVisible();
  await log.getByText('All', { exact: true }).click();

  // Roots edited here are announced, live in the log.
  const asked = log.getByRole('button', { name: /^← roots\/list #/ });
  // The server asks for roots once right after `notifications/initialized`; that ask can land
  // after the page has shown the log, so wait for it before counting, or the count races it.
  await expect(asked.first()).toBeVisible({ timeout: 15_000 });
  const before = await asked.count();
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'stepwise-e2e-roots-')));
  await details.getByRole('textbox', { name: /Roots/ }).fill(dir);
  await details.getByRole('button', { name: 'Save roots' }).click();
  await expect(details.getByText('Roots announced to everything: 1 folder.')).toBeVisible({ timeout: 15_000 });
  await expect(log.getByRole('button', { name: /^→ notifications\/roots\/list_changed/ })).toBeVisible({ timeout: 15_000 });
  // The server asks for the new roots.
  await expect(asked).toHaveCount(before + 1, { timeout: 15_000 });
  await shot(page, '90-mcp-server-view');
});
