/**
 * The main job end to end, clicking as a new user would, in Debian Chromium through a real
 * `stepwise serve` (real runner processes, real mcp-host with server-everything).
 * Each step saves a screenshot under test-results/screens/.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, shot, type ServeProcess } from './fixtures';

const row = (page: Page, name: string | RegExp) => page.getByRole('treeitem', { name });

async function openThread(page: Page, serve: ServeProcess, title: string): Promise<void> {
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: `thread ${title}` }).click();
  await expect(page.getByRole('button', { name: /^(Run|Continue)$/ })).toBeVisible();
}

/** Replaces the text of a CodeMirror editor (its content element is the labelled textbox). */
async function setEditorText(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

function writeThread(serve: ServeProcess, title: string, text: string, tokensPerSecond: number): void {
  const thread = {
    version: 1,
    id: crypto.randomUUID(),
    title,
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond }, script: [{ text }, { text }, { text }] },
    context: { systemPrompt: 'Tell stories.', tools: [], messages: [{ id: crypto.randomUUID(), role: 'user', content: [{ type: 'text', text: 'Tell me a long story.' }] }] },
    runRefs: [],
  };
  writeFileSync(path.join(serve.home, 'workspace', `${title}.json`), JSON.stringify(thread, null, 2));
}

const story = Array.from({ length: 120 }, (_, i) => `w${i}`).join(' ');

/**
 * Writes "Long story" (the story streamed at `tokensPerSecond`), opens it and presses Run;
 * resolves once the running LLM row shows `word`.
 */
async function runLongStory(page: Page, serve: ServeProcess, tokensPerSecond: number, word: string): Promise<void> {
  writeThread(serve, 'Long story', story, tokensPerSecond);
  await openThread(page, serve, 'Long story');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(row(page, 'llm scripted, running')).toContainText(word, { timeout: 15_000 });
}

test('the example MCP agent: run, edit an argument, run all tools, continue, undo and redo', async ({ page, serve }) => {
  await openThread(page, serve, 'MCP agent, step by step');
  await shot(page, '01-example-open');

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const llm = row(page, /^llm scripted, (running|completed)$/).first();
  await expect(llm).toBeVisible();
  // The reply grows while the model streams.
  await expect(row(page, 'llm scripted, running')).toContainText("I'll add", { timeout: 15_000 });
  await shot(page, '02-streaming');
  await expect(row(page, 'tool get-sum, awaiting input')).toBeVisible({ timeout: 20_000 });
  await expect(row(page, 'tool trigger-sampling-request, awaiting input')).toBeVisible();
  await shot(page, '03-tools-waiting');

  // Edit one argument of the get-sum call.
  const args = page.getByRole('textbox', { name: 'Arguments of get-sum' });
  await setEditorText(page, args, '{"a": 17, "b": 30}');
  await page.waitForTimeout(900); // typing merges into one undo step after ~800 ms

  await page.getByRole('button', { name: 'Run all tools', exact: true }).click();
  await expect(row(page, /^sampling .*, (running|completed)$/)).toBeVisible({ timeout: 30_000 });
  await expect(row(page, 'tool get-sum, completed')).toBeVisible({ timeout: 30_000 });
  await expect(row(page, 'tool get-sum, completed')).toContainText('The sum of 17 and 30 is 47.');
  await expect(row(page, 'tool trigger-sampling-request, completed')).toBeVisible({ timeout: 30_000 });
  await expect(row(page, /^sampling .*, completed$/)).toContainText('Grey water climbs in');
  await shot(page, '04-tools-ran');

  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const answer = page.getByLabel('assistant message 3');
  await expect(answer).toContainText('Both tools have answered', { timeout: 20_000 });
  await shot(page, '05-final-answer');

  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(answer).toHaveCount(0);
  // The run stays shown, and says its result was undone.
  const note = page.getByRole('note').filter({ hasText: "Undone: this run's result is no longer in the thread" });
  await expect(note).toContainText('Redo brings its result back');
  await shot(page, '06-undone');
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect(page.getByLabel('assistant message 3')).toContainText('Both tools have answered');
  await expect(note).toHaveCount(0);
  await shot(page, '07-redone');

  // Switching to another thread and back keeps this window's undo history.
  await page.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
  await expect(page.getByLabel('assistant message 3')).toHaveCount(0);
  await page.getByRole('treeitem', { name: 'thread MCP agent, step by step' }).click();
  await expect(page.getByLabel('assistant message 3')).toContainText('Both tools have answered');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByLabel('assistant message 3')).toHaveCount(0);
});

test('Stop (Esc) mid-stream keeps the partial reply', async ({ page, serve }) => {
  await runLongStory(page, serve, 15, 'w3');
  // Esc outside any field is Stop (inside a field it belongs to the field: elicitation.spec.ts).
  await page.getByRole('heading', { name: 'Long story' }).click();
  await page.keyboard.press('Escape');
  const cancelled = row(page, 'llm scripted, cancelled');
  await expect(cancelled).toBeVisible({ timeout: 10_000 });
  await expect(cancelled).toContainText('w0 w1 w2 w3');
  await expect(cancelled).not.toContainText('w119');
  await shot(page, '08-stopped');
});

test('reloading the page mid-stream continues the text with no gap or duplicate', async ({ page, serve }) => {
  await runLongStory(page, serve, 25, 'w5');
  // The token left the address bar once the page had it, and no cookie carries it: the reload
  // finds it in this tab's sessionStorage.
  expect(page.url()).not.toContain(serve.token);
  expect(await page.context().cookies()).toEqual([]);
  await page.reload();
  await page.getByRole('treeitem', { name: 'thread Long story' }).click();
  // The reloaded window knows the live run's mode, not just that a run exists.
  await expect(page.getByRole('combobox', { name: 'Shown run' })).toHaveValue(/^step · /);
  const done = row(page, 'llm scripted, completed');
  // While it still streams after the reload, the text shown is always a prefix of the story.
  const live = row(page, /^llm scripted, (running|completed)$/).first();
  for (let i = 0; i < 10; i++) {
    const t = ((await live.textContent()) ?? '').match(/w0[\s\S]*/)?.[0]?.trim() ?? '';
    if (t) expect(story.startsWith(t.split(/\s+/).join(' '))).toBe(true);
    await page.waitForTimeout(200);
  }
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done).toContainText(story);
  await shot(page, '09-after-reload');
});

test('killing the runner process mid-stream shows the run interrupted with its partial, also in the thread; the app keeps working', async ({ page, serve }) => {
  await runLongStory(page, serve, 15, 'w3');
  const pids = serve.runnerPids();
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  const interrupted = row(page, 'llm scripted, interrupted');
  await expect(interrupted).toBeVisible({ timeout: 10_000 });
  await expect(interrupted).toContainText('w0 w1 w2 w3');
  // The thread keeps the partial reply, marked interrupted, as a cut provider stream leaves it.
  const reply = page.getByLabel('assistant message 2');
  await expect(reply).toContainText('w0 w1 w2 w3');
  await expect(reply).toContainText('The reply was interrupted: its runner process stopped');
  await shot(page, '10-interrupted');
  // The app keeps working: another run of the same thread completes.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(row(page, 'llm scripted, completed')).toContainText('w119', { timeout: 30_000 });
});

test('a wrong token, a foreign Origin and a rebinding Host are refused', async ({ page, serve }) => {
  const port = new URL(serve.origin).port;
  const wrong = await page.request.get(`${serve.origin}/?token=wrong`, { maxRedirects: 0 });
  expect(wrong.status()).toBe(401);
  const rebinding = await page.request.get(`${serve.origin}/?token=${serve.token}`, { headers: { host: `attacker.example:${port}` }, maxRedirects: 0 });
  expect(rebinding.status()).toBe(421);
  const foreign = await page.request.get(`${serve.origin}/?token=${serve.token}`, { headers: { origin: 'http://attacker.example' }, maxRedirects: 0 });
  expect(foreign.status()).toBe(403);
  // A page on another origin cannot open the WebSocket even with the token.
  await page.goto('about:blank');
  const refused = await page.evaluate(
    ([origin, token]) =>
      new Promise<boolean>((resolve) => {
        const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, ['stepwise.v1', `stepwise.token.${token}`]);
        ws.onopen = () => resolve(false);
        ws.onerror = () => resolve(true);
      }),
    [serve.origin, serve.token],
  );
  expect(refused).toBe(true);
});

test('a malformed thread file shows a clear error naming the problem', async ({ page, serve }) => {
  writeFileSync(path.join(serve.home, 'workspace', 'Broken.json'), '{"version": 1, "id": "x", "title": ');
  writeFileSync(path.join(serve.home, 'workspace', 'Wrong type.json'), JSON.stringify({ version: 1, id: 'y', title: 'Wrong type', model: { provider: 'scripted', id: 's', params: {} }, context: { systemPrompt: 3, tools: [], messages: [] }, runRefs: [] }));
  await page.goto(serve.url);
  const broken = page.getByRole('treeitem', { name: 'thread Broken, malformed' });
  await expect(broken).toBeVisible();
  await expect(broken).toContainText(/JSON|truncated|end of/i);
  const wrong = page.getByRole('treeitem', { name: 'thread Wrong type, malformed' });
  await expect(wrong).toContainText('/context/systemPrompt');
  await shot(page, '11-malformed');
});
