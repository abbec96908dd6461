/**
 * The Evaluate view end to end on the offline scripted model: a dataset made in the grid (a
 * variable column, three cases, a `contains` and a token-limit assertion), a batch of the open
 * thread with two variants — `padded` picks a scenario whose long variable pushes one case
 * past the token limit — pass and fail per cell with the failing assertion's reason, and the
 * failing case's thread and run opened from its cell, that run added back as a case. Also: an
 * import with a bad line names it; a dataset from a thread's scenarios, exported as JSONL; a
 * batch cancelled and resumed; two batches compared; a batch whose file is cut short listed as
 * unreadable with its reason.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, shot, type ServeProcess } from './fixtures';

/** A scripted thread answering "The answer is 4." at `tokensPerSecond`, written to the workspace as `<title>.json`. */
function writeThread(serve: ServeProcess, title: string, tokensPerSecond: number, systemPrompt: string, variables: Record<string, string>, scenarios: { name: string; variables: Record<string, string> }[]): void {
  const thread = {
    version: 1,
    id: crypto.randomUUID(),
    title,
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond }, script: [{ text: 'The answer is 4.' }] },
    context: { systemPrompt, tools: [], variables, scenarios, messages: [{ id: crypto.randomUUID(), role: 'user', content: [{ type: 'text', text: 'What?' }] }] },
    runRefs: [],
  };
  writeFileSync(path.join(serve.home, 'workspace', `${title}.json`), JSON.stringify(thread));
}

/**
 * The scripted model's input tokens are estimated as characters / 4 (system prompt included),
 * so `{{question}}{{pad}}` sets them per case, and the `padded` scenario adds ~100.
 */
function writeQuiz(serve: ServeProcess): void {
  writeThread(serve, 'Quiz', 500, 'Q: {{question}}{{pad}}', { question: '', pad: '' }, [{ name: 'padded', variables: { pad: 'x'.repeat(400) } }]);
}

async function pick(page: Page, select: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: select, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a dataset made in the grid, a batch of two variants, a failing case opened from the results', async ({ page, serve }) => {
  test.setTimeout(180_000);
  writeQuiz(serve);
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Quiz' }).click();
  await expect(page.getByRole('heading', { name: 'Quiz' })).toBeVisible();
  await page.getByRole('button', { name: 'Evaluate' }).click();
  // A new workspace has the examples' dataset (and its batch) only.
  const datasets = page.getByRole('navigation', { name: 'Datasets' }).getByRole('button');
  await expect(datasets).toHaveCount(1);
  await expect(datasets).toHaveAccessibleName('dataset capitals');

  // An import with a bad line says which line, and creates nothing.
  await page.getByRole('button', { name: 'New dataset' }).click();
  await page.getByRole('textbox', { name: 'Dataset name' }).fill('quiz');
  await page.getByText('Import JSONL or CSV', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Cases to import' }).fill('{"id":"a","question":"1+1"}\n{oops\n');
  await page.getByRole('button', { name: 'Create dataset' }).click();
  await expect(page.getByRole('alert')).toContainText('line 2: not JSON');

  // From scratch, then the grid.
  await page.getByText('From scratch', { exact: true }).click();
  await page.getByRole('button', { name: 'Create dataset' }).click();
  await expect(page.getByRole('table', { name: 'Cases' })).toBeVisible();
  await page.getByRole('textbox', { name: 'New variable name' }).fill('question');
  await page.getByRole('button', { name: 'Add variable' }).click();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Add case' }).click();
  const cell = (col: string, row: number) => page.getByRole('textbox', { name: `${col} of case ${row}`, exact: true });
  await cell('id', 1).fill('short');
  await cell('question', 1).fill('2+2');
  await cell('id', 2).fill('long');
  await cell('question', 2).fill('y'.repeat(100));
  await cell('tags', 2).fill('hard');
  await page.getByRole('button', { name: 'Remove case 3' }).click();
  await expect(cell('id', 3)).toHaveCount(0);
  // A contains assertion, then at most 120 tokens: `long` with the padding needs ~132.
  await page.getByRole('button', { name: 'Add assertion' }).click();
  await page.getByRole('textbox', { name: 'Text of assertion 1' }).fill('4');
  await pick(page, 'Assertion type', 'at most tokens');
  await page.getByRole('button', { name: 'Add assertion' }).click();
  await page.getByRole('textbox', { name: 'Limit of assertion 2' }).fill('120');
  await page.getByRole('button', { name: 'Save dataset' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'dataset quiz' })).toContainText('2 cases');

  // A batch of the open thread: the thread's own values, and the padded scenario.
  await page.getByRole('button', { name: 'Run a batch' }).click();
  await page.getByRole('button', { name: 'Add variant' }).click();
  await page.getByRole('textbox', { name: 'Name of variant 2' }).fill('padded');
  await page.getByRole('combobox', { name: 'Scenario of variant 2' }).fill('padded');
  await page.getByRole('textbox', { name: 'Params of variant 2' }).fill('{"temperature": }');
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page.getByRole('alert')).toContainText('variant 2: params are not JSON');
  await page.getByRole('textbox', { name: 'Params of variant 2' }).fill('{"temperature": 0}');
  await page.getByRole('button', { name: 'Start batch' }).click();

  await expect(page.getByRole('status', { name: 'Batch progress counts' })).toContainText('4 of 4 done', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Open short, base: passed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open long, base: passed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open short, padded: passed' })).toBeVisible();
  const failing = page.getByRole('button', { name: /^Open long, padded: failed — max_tokens: / });
  await expect(failing).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'summary of padded' })).toContainText('1/2 passed (50%)');
  await expect(page.getByRole('columnheader', { name: 'summary of base' })).toContainText('2/2 passed (100%)');
  // The reason, expanded; the filters.
  await page.getByRole('button', { name: 'Why long padded failed' }).click();
  await expect(page.getByRole('table', { name: 'Results' }).getByText(/^max_tokens: /)).toBeVisible();
  await shot(page, 'eval-results');
  await pick(page, 'Filter by status', 'failed');
  await expect(page.getByRole('button', { name: /^Open short/ })).toHaveCount(0);
  await pick(page, 'Filter by status', 'every status');
  await pick(page, 'Filter by tag', 'hard');
  await expect(page.getByRole('button', { name: /^Open short/ })).toHaveCount(0);
  await expect(failing).toBeVisible();

  // The failing cell opens the case's thread and its run.
  await failing.click();
  await expect(page.getByRole('heading', { name: /^Quiz · .* · long · padded$/ })).toBeVisible();
  await expect(page.getByRole('treeitem', { name: /^llm scripted, completed$/ })).toBeVisible();
  await expect(page.getByRole('treeitem', { name: 'run react, completed' })).toBeVisible();
  await page.getByRole('tab', { name: 'Run history' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Run history' }).getByLabel('run react, completed')).toHaveCount(1);

  // Run history: this run becomes a case of the dataset, its answer the expected value.
  await page.getByRole('button', { name: /^Add run \S+ to a dataset$/ }).click();
  await page.getByRole('dialog', { name: 'Add this run as a case' }).getByRole('button', { name: 'Add case' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Added as case .+ of quiz \(3 cases\)\.$/ })).toBeVisible();
  await page.getByRole('button', { name: 'Done', exact: true }).click();

  // The case's run is a normal run: branch its thread at the answer.
  await page.getByRole('button', { name: 'More actions for message 2' }).click();
  await page.getByRole('menuitem', { name: 'Branch from here' }).click();
  await expect(page.getByLabel('Branches', { exact: true })).toContainText(/Branch of Quiz · .* · long · padded at message 2/);
  await expect(page.getByRole('heading', { name: /^Quiz · .* · long · padded \(branch\)$/ })).toBeVisible();

  await page.getByRole('button', { name: 'Evaluate' }).click();
  // The batch list dates each batch (batches of one dataset share its name).
  const when = page.getByRole('navigation', { name: 'Batches' }).getByRole('button').first().locator('time');
  expect(Math.abs(Date.parse((await when.getAttribute('datetime'))!) - Date.now())).toBeLessThan(10 * 60_000);
  await expect(when).not.toBeEmpty();
  await page.getByRole('button', { name: 'dataset quiz' }).click();
  await expect(cell('expected', 3)).toHaveValue('The answer is 4.');
  await expect(cell('question', 3)).toHaveValue('y'.repeat(100));
});

test('a dataset from the thread’s scenarios, exported; a batch cancelled, resumed, and compared with a later one', async ({ page, serve }) => {
  test.setTimeout(180_000);
  // Four tokens at 2 per second: each case takes about two seconds.
  writeThread(serve, 'Slow', 2, 'Q: {{question}}', { question: '' }, ['one', 'two', 'three'].map((q) => ({ name: q, variables: { question: q } })));
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Slow' }).click();
  await expect(page.getByRole('heading', { name: 'Slow' })).toBeVisible();
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: 'New dataset' }).click();
  await page.getByRole('textbox', { name: 'Dataset name' }).fill('slow');
  await page.getByText('From the thread’s scenarios', { exact: true }).click();
  await expect(page.getByText('3 scenarios of “Slow” become cases')).toBeVisible();
  await page.getByRole('button', { name: 'Create dataset' }).click();
  await expect(page.getByRole('textbox', { name: 'question of case 3', exact: true })).toHaveValue('three');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSONL' }).click();
  const file = await (await download).path();
  expect(readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l))).toEqual([
    { id: 'one', vars: { question: 'one' } },
    { id: 'two', vars: { question: 'two' } },
    { id: 'three', vars: { question: 'three' } },
  ]);

  // One case at a time; cancelled after the first, resumed for the rest.
  await page.getByRole('button', { name: 'Run a batch' }).click();
  await page.getByRole('textbox', { name: 'Concurrency' }).fill('1');
  await page.getByRole('button', { name: 'Start batch' }).click();
  const counts = page.getByRole('status', { name: 'Batch progress counts' });
  await expect(counts).toContainText('1 of 3 done', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel batch' }).click();
  await expect(counts).toContainText('interrupted', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Resume batch' }).click();
  await expect(counts).toContainText('3 of 3 done', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: /^Open \w+, base: passed$/ })).toHaveCount(3);

  // A second, fast batch of the same dataset, compared with the first.
  await page.getByRole('button', { name: 'Run a batch' }).click();
  await page.getByRole('textbox', { name: 'Params of variant 1' }).fill('{"tokensPerSecond": 1000}');
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(counts).toContainText('3 of 3 done', { timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Compare with an earlier batch' }).click();
  await page.getByRole('option').first().click();
  await expect(page.getByText('0 regressions, 0 improvements, 3 unchanged')).toBeVisible();
});

test('a batch whose file cannot be read is listed as unreadable with its reason, with nothing to open', async ({ page, serve }) => {
  const folder = path.join(serve.home, 'workspace', 'evals', 'quiz', 'cut-short');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, '.batch.json'), '{"id": "cut-short", "name": "quiz", "createdAt": 1');
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'Evaluate' }).click();
  const row = page.getByRole('group', { name: 'batch cut-short, unreadable' });
  await expect(row).toContainText('evals/quiz/cut-short/.batch.json is not JSON: line 1, column');
  await expect(row).not.toContainText(serve.home);
  await expect(page.getByRole('button', { name: 'batch cut-short' })).toHaveCount(0);
  await expect(page.getByText(/No batches yet/)).toHaveCount(0);
});
