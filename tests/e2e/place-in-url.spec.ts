/**
 * Reload keeps your place (issue 16, item 1): the open thread, the shown run and the selected
 * node live in the address. F5 during a run shows the thread and the live run, which kept going
 * in its own process; the address opened in a new tab comes back to the same run and node; Back
 * and Forward move between the threads and runs opened.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { numberedWords, writeScriptedThread } from '../support/scripted-thread-file';

const row = (page: Page, name: string | RegExp) => page.getByRole('treeitem', { name });
const heading = (page: Page, title: string) => page.getByRole('heading', { name: title });
/** The short id of the run the execution panel shows (its picker's label ends with it). */
const shownRunId = async (page: Page) => (await page.getByRole('combobox', { name: 'Shown run' }).inputValue()).split(' · ').at(-1)!;
const showsRun = (page: Page, shortId: string) => expect(page.getByRole('combobox', { name: 'Shown run' })).toHaveValue(new RegExp(` · ${shortId}$`));

test('F5 during a run shows the thread and its live run, which ends normally', async ({ page, serve }) => {
  const story = numberedWords(80);
  writeScriptedThread(serve.home, 'Long story', [story], 20);
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Long story' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(row(page, 'llm scripted, running')).toContainText('w3', { timeout: 15_000 });

  await page.reload();
  // No click: the reloaded window is back on the thread, showing the run still streaming.
  await expect(heading(page, 'Long story')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Shown run' })).toHaveValue(/^step · running · /);
  await expect(row(page, 'llm scripted, running')).toBeVisible();
  await expect(page.getByText('No thread open')).toHaveCount(0);
  const done = row(page, 'llm scripted, completed');
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done).toContainText(story);
});

test('the address names the thread, run and node: a new tab opens them; Back and Forward move between threads and runs', async ({ page, serve, context }) => {
  writeScriptedThread(serve.home, 'Quick one', ['first answer', 'second answer'], 400);
  writeScriptedThread(serve.home, 'Quick two', ['other answer'], 400);
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Quick one' }).click();
  await expect(heading(page, 'Quick one')).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(row(page, /^run step, completed$/)).toBeVisible({ timeout: 30_000 });
  const firstRun = await shownRunId(page);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Shown run' })).not.toHaveValue(new RegExp(` · ${firstRun}$`));
  await expect(row(page, /^run step, completed$/)).toBeVisible({ timeout: 30_000 });
  const secondRun = await shownRunId(page);
  await row(page, /^llm scripted, completed$/).click();
  await expect(page.getByText(/Raw request \(scripted\)/)).toBeVisible();
  await expect(row(page, /^llm scripted, completed$/)).toHaveAttribute('aria-selected', 'true');

  // The token is not in the address; the place is.
  const address = new URL(page.url());
  expect(page.url()).not.toContain(serve.token);
  expect(address.hash).toMatch(/thread=Quick\+one\.json&run=[^&]+&node=/);

  // A new tab on the address (with the token the host printed): same thread, run and node.
  const tab = await context.newPage();
  await tab.goto(`${serve.url}${address.hash}`);
  await expect(heading(tab, 'Quick one')).toBeVisible();
  await showsRun(tab, secondRun);
  await expect(row(tab, /^llm scripted, completed$/)).toHaveAttribute('aria-selected', 'true');
  await expect(tab.getByText(/Raw request \(scripted\)/)).toBeVisible();
  await expect(row(tab, /^llm scripted, completed$/)).toContainText('second answer');
  expect(tab.url()).not.toContain(serve.token);
  await tab.close();

  // Another thread, then Back: the first thread and its run again; Forward: the other thread.
  await page.getByRole('treeitem', { name: 'thread Quick two' }).click();
  await expect(heading(page, 'Quick two')).toBeVisible();
  await page.goBack();
  await expect(heading(page, 'Quick one')).toBeVisible();
  await showsRun(page, secondRun);
  await page.goForward();
  await expect(heading(page, 'Quick two')).toBeVisible();
  // Back twice: the first thread's first run (each run shown was an entry).
  await page.goBack();
  await expect(heading(page, 'Quick one')).toBeVisible();
  await page.goBack();
  await showsRun(page, firstRun);
  await expect(row(page, /^llm scripted, completed$/)).toContainText('first answer');
});
