/**
 * Issue 16 [ux]: the turn cap is labelled and a run it stops says so (run bar, detail, run
 * history) with Continue offered; Compare's ticks stay with their thread; a step of a run the
 * tree no longer shows offers to open that run; the tree, the header and the file share one name.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, type ServeProcess } from './fixtures';

/** A thread on the scripted model that answers each Run with plain text. */
function writeThread(serve: ServeProcess, file: string, title: string): void {
  const thread = {
    version: 1,
    id: crypto.randomUUID(),
    title,
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 400 }, script: [{ text: 'First answer.' }, { text: 'Second answer.' }] },
    context: { systemPrompt: 'Be brief.', tools: [], messages: [{ id: crypto.randomUUID(), role: 'user', content: [{ type: 'text', text: 'Hello.' }] }] },
    runRefs: [],
  };
  writeFileSync(path.join(serve.home, 'workspace', `${file}.json`), JSON.stringify(thread, null, 2));
}

async function openThread(page: Page, title: string): Promise<void> {
  await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: `thread ${title}`, exact: true }).click();
  await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
}

/**
 * Runs the open thread `n` times, each to its end in Run history. The thread has no runs before:
 * counting them here could still see the previous thread's history, not switched yet.
 */
async function runTimes(page: Page, n: number): Promise<void> {
  const history = page.getByRole('tabpanel', { name: 'Run history' });
  for (let i = 1; i <= n; i++) {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(history.getByLabel(/^run step, completed$/)).toHaveCount(i, { timeout: 30_000 });
  }
}

test('the turn cap is labelled; a run it stops says so in the run bar, detail and history, and Continue runs on', async ({ page, serve }) => {
  await page.goto(serve.url);
  await openThread(page, 'ReAct loop with tools');
  // The cap is a labelled field, not a bare number.
  await expect(page.getByText('Max turns', { exact: true })).toBeVisible();
  const cap = page.getByRole('textbox', { name: 'Max turns' });
  await cap.fill('2');
  await expect(cap).toHaveValue('2');

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const note = page.getByRole('status').filter({ hasText: 'Stopped after 2 turns — the cap set in Max turns.' });
  await expect(note).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('treeitem', { name: /^llm scripted, completed$/ })).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeEnabled();
  // The execution panel's status says so too, not a plain "completed".
  await expect(page.getByText('stopped at the turn cap', { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Shown run' }).or(page.getByRole('combobox', { name: 'Shown run' })).first()).toHaveValue(/^react · completed · stopped at the turn cap · /);

  await page.getByRole('treeitem', { name: /^run react, completed$/ }).click();
  await page.getByRole('tab', { name: 'Detail' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Detail' })).toContainText('Stopped at the turn cap');

  await page.getByRole('tab', { name: 'Run history' }).click();
  const history = page.getByRole('tabpanel', { name: 'Run history' });
  await expect(history.getByLabel('run react, completed, stopped at the turn cap')).toContainText('turn cap (2)');

  // Continue runs on, in the same turn (Run history lists the turn once); the newest run ended
  // on its own, so the note goes, and the turn is no longer marked as stopped.
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(history.getByLabel(/^run react, completed, a turn of 2 runs$/)).toHaveCount(1, { timeout: 60_000 });
  await expect(note).toHaveCount(0);
  await expect(page.getByLabel(/assistant message 4/)).toContainText('the loop stopped');
});

test('runs ticked for Compare stay with their thread', async ({ page, serve }) => {
  writeThread(serve, 'Alpha', 'Alpha');
  writeThread(serve, 'Beta', 'Beta');
  await page.goto(serve.url);
  await page.getByRole('tab', { name: 'Run history' }).click();
  const history = page.getByRole('tabpanel', { name: 'Run history' });
  const boxes = history.getByRole('checkbox', { name: /^Pick run/ });

  await openThread(page, 'Alpha');
  await runTimes(page, 2);
  for (const box of await boxes.all()) await box.check();
  await expect(history).toContainText('Two runs picked');

  await openThread(page, 'Beta');
  await runTimes(page, 2);
  await expect(history).toContainText('Tick two runs to compare them.');
  await expect(history).not.toContainText('Two runs picked');
  await expect(history.getByRole('button', { name: 'Compare runs' })).toBeDisabled();
  for (const box of await boxes.all()) await expect(box).not.toBeChecked();

  // Alpha's ticks are still there when it is opened again.
  await openThread(page, 'Alpha');
  await expect(boxes).toHaveCount(2);
  for (const box of await boxes.all()) await expect(box).toBeChecked();
  await expect(history).toContainText('Two runs picked');
});

test('a step of a run the tree no longer shows says so and opens that run again', async ({ page, serve }) => {
  writeThread(serve, 'Gamma', 'Gamma');
  await page.goto(serve.url);
  await openThread(page, 'Gamma');
  await page.getByRole('tab', { name: 'Run history' }).click();
  await runTimes(page, 1);
  await page.getByRole('treeitem', { name: /^llm scripted, completed$/ }).click();
  await page.getByRole('tab', { name: 'Detail' }).click();
  const detail = page.getByRole('tabpanel', { name: 'Detail' });
  await expect(detail.getByRole('textbox', { name: 'Node input' })).toContainText('Be brief.');

  // A new run replaces the shown one; the selected step's run is not held any more.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(detail).toContainText(/This step is from an earlier run \(\S+\)\. A newer run replaced it in the execution tree\./, { timeout: 30_000 });
  await expect(detail).not.toContainText('no longer held');
  await detail.getByRole('button', { name: /^Open run \S+$/ }).click();
  await expect(detail.getByRole('textbox', { name: 'Node input' })).toContainText('Be brief.');
  await expect(page.getByRole('treeitem', { name: /^llm scripted, completed$/ })).toHaveCount(1);
});

test('the tree shows the thread title; renaming it in the header renames the file and the tree entry', async ({ page, serve }) => {
  const dir = path.join(serve.home, 'workspace');
  writeThread(serve, 'Untitled thread', 'MCP features');
  await page.goto(serve.url);
  const tree = page.getByRole('tree', { name: 'Workspace' });
  await expect(tree.getByRole('treeitem', { name: 'thread MCP features', exact: true })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: 'thread Untitled thread', exact: true })).toHaveCount(0);
  await openThread(page, 'MCP features');

  await page.getByRole('button', { name: 'Edit thread title' }).click();
  const input = page.getByRole('textbox', { name: 'Thread title' });
  await input.fill('Tool features');
  await input.press('Enter');
  await expect(page.getByRole('heading', { name: 'Tool features', exact: true })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: 'thread Tool features', exact: true })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: 'thread MCP features', exact: true })).toHaveCount(0);
  await expect.poll(() => existsSync(path.join(dir, 'Tool features.json'))).toBe(true);
  expect(existsSync(path.join(dir, 'Untitled thread.json'))).toBe(false);

  // Escape leaves the title as it was.
  await page.getByRole('button', { name: 'Edit thread title' }).click();
  await input.fill('Something else');
  await input.press('Escape');
  await expect(page.getByRole('heading', { name: 'Tool features', exact: true })).toBeVisible();
  expect(existsSync(path.join(dir, 'Something else.json'))).toBe(false);
});
