/**
 * Issue 16 [ux] item 11: a command palette on Mod+K reaching the window's actions (the
 * interface conventions' names) and every thread by a fuzzy title; a help sheet on `?` (not
 * while typing) listing the shortcuts the window binds.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { scriptedThread } from '../support/threads';
import { test, expect, shot } from './fixtures';

async function palette(page: Page) {
  await page.keyboard.press('ControlOrMeta+K');
  const dialog = page.getByRole('dialog').filter({ has: page.getByRole('combobox', { name: 'Command' }) });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('Mod+K reaches the actions and switches threads by a fuzzy title; ? lists the shortcuts it binds', async ({ page, serve }) => {
  const thread = scriptedThread([{ text: 'First answer.' }, { text: 'Second answer.' }], { title: 'Palette check', tokensPerSecond: 400 });
  writeFileSync(path.join(serve.home, 'workspace', 'Palette check.json'), JSON.stringify(thread));
  await page.goto(serve.url);
  await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread Palette check', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Palette check', exact: true })).toBeVisible();

  // Every action of the conventions that applies to this thread now, by its name.
  let dialog = await palette(page);
  for (const name of ['Run', 'Run all tools', 'Undo', 'Redo', 'New thread', 'Auto-run tools: turn on', 'Compare runs', 'Settings', 'Side-by-side layout', 'Keyboard shortcuts'])
    await expect(dialog.getByRole('option', { name, exact: true })).toBeVisible();
  // Run from the palette.
  await dialog.getByRole('combobox', { name: 'Command' }).fill('run');
  await expect(dialog.getByRole('option').first()).toHaveAccessibleName(/^Run/);
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('First answer.').first()).toBeVisible({ timeout: 30_000 });

  // A thread by a fuzzy title, from inside a text field.
  await page.getByRole('textbox', { name: 'Filter threads by title' }).click();
  dialog = await palette(page);
  await dialog.getByRole('combobox', { name: 'Command' }).fill('rct lp tls');
  await expect(dialog.getByRole('option').first()).toContainText('ReAct loop with tools');
  await page.screenshot({ path: 'test-results/screens/71-command-palette.png' });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'ReAct loop with tools', exact: true })).toBeVisible();

  // Settings.
  dialog = await palette(page);
  await dialog.getByRole('combobox', { name: 'Command' }).fill('settings');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('tab', { name: 'MCP servers' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // `?` while typing is a character, not the help sheet.
  const filter = page.getByRole('textbox', { name: 'Filter threads by title' });
  await filter.fill('');
  await filter.press('?');
  await expect(filter).toHaveValue('?');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await filter.fill('');

  // Outside a field it opens the sheet, which lists the bindings.
  await page.getByRole('heading', { name: 'ReAct loop with tools', exact: true }).click();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await shot(page, '72-shortcut-sheet');
  const mod = process.platform === 'darwin' ? '⌘' : 'Ctrl';
  for (const [label, keys] of [
    ['Run / Continue', `${mod}+Enter`],
    ['Run all tools', `${mod}+Shift+Enter`],
    ['Stop', 'Esc'],
    ['Undo', `${mod}+Z`],
    ['Redo', `${mod}+Shift+Z`],
    ['New thread', `${mod}+N`],
    ['Command palette', `${mod}+K`],
    ['Keyboard shortcuts', '?'],
  ]) await expect(sheet.getByRole('row').filter({ hasText: label }).first()).toContainText(keys);
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);

  // A binding the sheet lists does what it says: Mod+N makes a new thread.
  const before = await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem').count();
  await page.keyboard.press('ControlOrMeta+N');
  await expect(page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem')).toHaveCount(before + 1);
});
