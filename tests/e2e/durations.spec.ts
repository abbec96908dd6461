/**
 * Durations measured once (issue 16, item 4): the runner measures each node once and every view
 * shows that number — the live execution tree, Detail, Run history, Compare — also after a
 * reload. Before, history and Compare read the host's open and close times, which also count the
 * runner process starting and ending.
 */
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { numberedWords, writeScriptedThread } from '../support/scripted-thread-file';

const DURATION = /(\d+ ms|\d+\.\d\d s)/;
const row = (page: Page, name: string | RegExp) => page.getByRole('treeitem', { name });

/** The duration a locator's text shows (the first one). */
async function durationIn(l: Locator): Promise<string> {
  const text = (await l.textContent()) ?? '';
  const m = DURATION.exec(text);
  if (!m) throw new Error(`no duration in ${JSON.stringify(text)}`);
  return m[1];
}

/** Run the open thread once; returns the run's short id and the duration its live run row showed. */
async function runOnce(page: Page): Promise<{ id: string; live: string }> {
  const picker = page.getByRole('combobox', { name: 'Shown run' });
  const before = (await picker.count()) > 0 ? await picker.inputValue() : '';
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // The tree switches to the new run (the run before stays shown until then, completed too).
  await expect(picker).not.toHaveValue(before, { timeout: 30_000 });
  const runRow = row(page, /^run step, completed$/);
  await expect(runRow).toBeVisible({ timeout: 30_000 });
  await expect(runRow.locator('.sw-row-head')).toContainText(DURATION);
  const id = (await page.getByRole('combobox', { name: 'Shown run' }).inputValue()).split(' · ').at(-1)!;
  return { id, live: await durationIn(runRow.locator('.sw-row-head [data-duration]')) };
}

test('a run shows one duration in the live tree, Detail, Run history and Compare, before and after a reload', async ({ page, serve }) => {
  writeScriptedThread(serve.home, 'Timed', [numberedWords(12), numberedWords(16)], 40);
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Timed' }).click();
  const a = await runOnce(page);
  const b = await runOnce(page);

  // Detail of the run node.
  await row(page, /^run step, completed$/).click();
  const detail = page.getByRole('tabpanel', { name: 'Detail' });
  await expect(detail.getByRole('row').filter({ hasText: 'duration' })).toContainText(b.live);

  // Run history: each run's line.
  await page.getByRole('tab', { name: 'Run history' }).click();
  const history = page.getByRole('tabpanel', { name: 'Run history' });
  const line = (id: string) => history.getByLabel(/^run step, completed/).filter({ hasText: id });
  await expect(line(a.id)).toContainText(` · ${a.live}`);
  await expect(line(b.id)).toContainText(` · ${b.live}`);

  // Compare: each column's totals.
  await history.getByRole('checkbox', { name: `Pick run ${a.id} to compare` }).check();
  await history.getByRole('checkbox', { name: `Pick run ${b.id} to compare` }).check();
  await history.getByRole('button', { name: 'Compare runs' }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare runs' });
  const totals = dialog.getByText(/^step · /);
  await expect(totals).toHaveCount(2);
  const shown = [await durationIn(totals.nth(0)), await durationIn(totals.nth(1))].sort();
  expect(shown).toEqual([a.live, b.live].sort());
  await page.keyboard.press('Escape');

  // After a reload, read from the stored runs: the same numbers.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Timed' })).toBeVisible();
  await page.getByRole('tab', { name: 'Run history' }).click();
  await expect(line(a.id)).toContainText(` · ${a.live}`);
  await expect(line(b.id)).toContainText(` · ${b.live}`);
  await line(a.id).getByRole('button', { name: 'Open' }).click();
  await expect(row(page, /^run step, completed$/).locator('.sw-row-head')).toContainText(a.live);
});
