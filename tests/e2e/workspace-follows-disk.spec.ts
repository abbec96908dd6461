/**
 * The workspace follows the disk (issue 16, item 7): thread files added, renamed and removed
 * outside Stepwise appear and disappear in the workspace tree of every open window without a
 * reload. The open thread's file deleted outside gives a notice that says so; nothing is lost:
 * "Save it again" writes the window's copy back, edits included. A file broken outside while open
 * shows an error until it is fixed; what was typed meanwhile is kept, next to the fix's own change.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { writeScriptedThread } from '../support/scripted-thread-file';

test('files added, renamed and removed outside appear and disappear in every window', async ({ page, serve, context }) => {
  await page.goto(serve.url);
  const other = await context.newPage();
  await other.goto(serve.url);
  const trees = [page, other].map((p) => p.getByRole('tree', { name: 'Workspace' }));
  for (const t of trees) await expect(t.getByRole('treeitem', { name: 'thread ReAct loop with tools' })).toBeVisible();

  writeScriptedThread(serve.home, 'Made outside', ['hi'], 100);
  for (const t of trees) await expect(t.getByRole('treeitem', { name: 'thread Made outside' })).toBeVisible();

  const ws = path.join(serve.home, 'workspace');
  // Moved into a folder made outside: the folder appears, the thread one level down.
  mkdirSync(path.join(ws, 'Moved'));
  renameSync(path.join(ws, 'Made outside.json'), path.join(ws, 'Moved', 'Renamed outside.json'));
  for (const t of trees) {
    await expect(t.getByRole('treeitem', { name: 'folder Moved' })).toBeVisible();
    await expect(t.getByRole('treeitem', { name: 'thread Made outside' })).toHaveAttribute('aria-level', '2');
  }
  await other.getByRole('treeitem', { name: 'thread Made outside' }).click();
  await expect(other.getByRole('heading', { name: 'Made outside' })).toBeVisible();
  await expect(other.getByRole('alert')).toHaveCount(0);

  rmSync(path.join(ws, 'ReAct loop with tools.json'));
  for (const t of trees) await expect(t.getByRole('treeitem', { name: 'thread ReAct loop with tools' })).toHaveCount(0);
});

test('the open thread deleted outside: a notice says so, and Save it again keeps everything', async ({ page, serve }) => {
  writeScriptedThread(serve.home, 'Precious', ['hi'], 100);
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Precious' }).click();
  const prompt = page.getByRole('textbox', { name: 'System prompt' });
  await prompt.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Kept.');
  const file = path.join(serve.home, 'workspace', 'Precious.json');
  await expect.poll(() => JSON.parse(readFileSync(file, 'utf8')).context.systemPrompt).toBe('Answer briefly. Kept.');

  rmSync(file);
  const notice = page.getByRole('alert').filter({ hasText: "This thread's file was deleted" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Precious.json is no longer in the workspace folder');
  await expect(page.getByRole('treeitem', { name: 'thread Precious' })).toHaveCount(0);
  // The window still shows the thread as it was.
  await expect(page.getByRole('heading', { name: 'Precious' })).toBeVisible();
  await expect(prompt).toHaveText('Answer briefly. Kept.');
  await expect(page.getByText('The host reported an error')).toHaveCount(0);
  // Edits made meanwhile are kept too.
  await prompt.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Also.');

  await notice.getByRole('button', { name: 'Save it again' }).click();
  await expect(page.getByRole('treeitem', { name: 'thread Precious' })).toBeVisible();
  await expect(notice).toHaveCount(0);
  await expect.poll(() => existsSync(file)).toBe(true);
  expect(JSON.parse(readFileSync(file, 'utf8')).context.systemPrompt).toBe('Answer briefly. Kept. Also.');
  await expect(prompt).toHaveText('Answer briefly. Kept. Also.');
});

test('the open thread\'s file broken outside: the error shows until it is fixed, and what was typed meanwhile is saved with the fix', async ({ page, serve }) => {
  writeScriptedThread(serve.home, 'Fragile', ['hi'], 100);
  const file = path.join(serve.home, 'workspace', 'Fragile.json');
  const good = JSON.parse(readFileSync(file, 'utf8'));
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Fragile' }).click();
  await expect(page.getByRole('heading', { name: 'Fragile' })).toBeVisible();

  writeFileSync(file, '{ "version": 1, "broken": ');
  const error = page.getByRole('alert').filter({ hasText: 'The host reported an error' });
  await expect(error).toContainText('Fragile.json: line 1, column');
  await expect(error).toContainText('the thread file no longer loads');
  // Typed into the user message while the file is broken.
  const message = page.getByRole('textbox', { name: 'Text of message 1', exact: true });
  await message.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Typed.');
  await expect(message).toHaveText('Go. Typed.');

  // Fixed outside, with the system prompt changed too.
  writeFileSync(file, JSON.stringify({ ...good, context: { ...good.context, systemPrompt: 'Fixed outside.' } }, null, 2));
  await expect(error).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'System prompt' })).toHaveText('Fixed outside.');
  await expect(message).toHaveText('Go. Typed.');
  await expect.poll(() => JSON.parse(readFileSync(file, 'utf8')).context.messages[0].content[0].text).toBe('Go. Typed.');
  expect(JSON.parse(readFileSync(file, 'utf8')).context.systemPrompt).toBe('Fixed outside.');
});
