/**
 * Settings with a broken settings file. providers.json: its error (line and column) sits above
 * the built-in providers, saving is refused without touching the file, a scripted thread still
 * runs and a thread on another provider is refused naming the line and column. mcp.json: the
 * list says the file is broken and what to do (no empty state), and saving a server names the
 * line and column. A failed MCP Test says why once.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';

test('a broken providers.json: built-ins listed under its error, saving refused, scripted runs, openai refused', async ({ page, serve }) => {
  const file = path.join(serve.home, 'settings', 'providers.json');
  const broken = '{ "providers": [ { "id": "x", ';
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, broken);
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const notice = dialog.getByRole('alert').filter({ hasText: 'settings/providers.json cannot be read' });
  await expect(notice).toContainText('not valid JSON at line 1, column 31');
  await expect(notice).toContainText('scripted and replay still run');
  for (const id of ['openai', 'anthropic', 'scripted', 'replay']) await expect(dialog.getByRole('cell', { name: id, exact: true }).first()).toBeVisible();
  await expect(dialog.getByText(/^No providers/)).toHaveCount(0);

  await dialog.getByRole('textbox', { name: 'Id', exact: true }).fill('openai');
  await dialog.getByLabel(/API key/).fill('sk-test-0123456789abcdef');
  await dialog.getByRole('button', { name: 'Save provider' }).click();
  const refused = dialog.getByRole('alert').filter({ hasText: 'Could not save provider openai' });
  await expect(refused).toContainText('not valid JSON at line 1, column 31');
  await expect(refused).toContainText('nothing was changed');
  expect(readFileSync(file, 'utf8')).toBe(broken);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // The offline scripted model needs nothing from the file: its thread runs.
  await page.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('treeitem', { name: /^llm scripted, completed$/ }).first()).toBeVisible({ timeout: 30_000 });

  // A thread on openai (whose key may be in the file) is refused with the line and column.
  await page.getByRole('treeitem', { name: 'thread OpenAI (needs a key)' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'The run did not start' });
  await expect(banner).toContainText(/Provider "openai" cannot be looked up: .*providers\.json: not valid JSON at line 1, column 31/);
});

test('a broken mcp.json is said as broken with what to do; saving names the line and column; a failed Test says why once', async ({ page, serve }) => {
  const file = path.join(serve.home, 'settings', 'mcp.json');
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'MCP servers' }).click();

  // A server that cannot start: its Test failure is shown once, not again as the server's error.
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('nothere');
  await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(path.join(serve.home, 'no-such-server'));
  await dialog.getByRole('button', { name: 'Save server' }).click();
  await expect(dialog.getByText('Saved "nothere"')).toBeVisible();
  await dialog.getByRole('button', { name: 'Test nothere' }).click();
  const failed = dialog.getByText(/^Failed: /);
  await expect(failed).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByLabel('nothere: failed')).toBeVisible(); // the status badge
  const why = (await failed.innerText()).slice('Failed: '.length).split('\n')[0].slice(0, 60);
  await expect(dialog.getByText(why)).toHaveCount(1);

  const text = '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n';
  writeFileSync(file, text);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Settings' }).click();
  await dialog.getByRole('tab', { name: 'MCP servers' }).click();
  const notice = dialog.getByRole('alert').filter({ hasText: 'settings/mcp.json cannot be read' });
  await expect(notice).toContainText('not valid JSON at line 3, column 28');
  await expect(notice).toContainText('Fix the file at the line and column named (or delete it to start over)');
  await expect(dialog.getByText(/No MCP servers yet/)).toHaveCount(0);

  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('files');
  await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(process.execPath);
  await dialog.getByRole('button', { name: 'Save server' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Could not save the MCP server' })).toContainText('cannot be updated: not valid JSON at line 3, column 28');
  expect(readFileSync(file, 'utf8')).toBe(text);
});
