/**
 * A long ReAct loop with its thread open: 200 turns of the scripted model, each calling the
 * `everything` MCP server's echo tool, in the real web host and renderer. While it runs the
 * window keeps answering (the workspace filter takes typing and Stop stays offered); the run
 * ends completed with 200 LLM calls in its run file; the thread is saved with its 201 messages,
 * listed virtualised (a bounded number of rows in the page), and scrolling the playground to its
 * end shows the final message and the last tool result. The run file keeps each call's request
 * as what it adds to the call before, and the last call's raw request shows whole. Undo takes the
 * run's messages out (saved), Redo puts them back. While it streams, the execution tree's rows
 * never overlap one another; by keyboard, End and Home reach its last and first rows and the focused
 * row keeps focus when wheeled out of view.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { startServe, stopServe, type ServeProcess } from './fixtures';
import type { RunRecord } from '../../shared/protocol/host-api';
import type { RequestBase } from '../../shared/protocol/request-delta';
import { echoTool, reactThread } from '../support/threads';

const TURNS = 200;
let serve: ServeProcess | undefined;
test.afterEach(async () => {
  if (serve) await stopServe(serve);
  serve = undefined;
});

test(`a ${TURNS}-turn ReAct loop with the thread open: the window answers while it runs, and the thread gets the final message`, async ({ page }) => {
  test.setTimeout(480_000);
  const thread = reactThread(TURNS, echoTool, (i) => ({ message: `turn ${i}` }), { tokensPerSecond: 200, title: 'Long loop' });
  const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-e2e-'));
  mkdirSync(path.join(home, 'workspace'));
  writeFileSync(path.join(home, 'workspace', 'Long loop.json'), JSON.stringify(thread));
  serve = await startServe(home);

  await page.goto(serve.url);
  const workspace = page.getByRole('tree', { name: 'Workspace' });
  await workspace.getByRole('treeitem', { name: 'thread Long loop' }).click();
  await expect(page.getByRole('switch', { name: 'Auto-run tools' })).toBeChecked();
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  // While the loop runs: Stop is offered, and typing into the workspace filter filters.
  const stop = page.getByRole('button', { name: 'Stop' });
  await expect(stop).toBeEnabled();
  await expect(page.getByRole('treeitem', { name: /^tool echo, completed$/ }).first()).toBeVisible({ timeout: 60_000 });
  const filter = page.getByLabel('Filter threads by title');
  await filter.fill('no such thread');
  await expect(workspace.getByRole('treeitem', { name: 'thread Long loop' })).toHaveCount(0);
  await filter.fill('long');
  await expect(workspace.getByRole('treeitem', { name: 'thread Long loop' })).toBeVisible();
  await expect(stop, 'the run was still running while the window answered').toBeEnabled();
  // While nodes stream in, the execution tree's rows never overlap: a row that grows pushes the
  // rows below it down in the same frame (checked each frame for 40 frames).
  expect(await treeOverlaps(page, 40), 'execution tree rows drawn over each other').toEqual([]);
  await expect(stop, 'the run was still running while the tree was checked').toBeEnabled();

  await expect(page.getByRole('treeitem', { name: /^run react, completed$/ })).toBeVisible({ timeout: 400_000 });

  // The tree by keyboard, its 400 rows virtualised: End focuses the last node (far below the
  // view), Home the run node again, and the focused row keeps focus while wheeled out of view.
  const execTree = page.getByRole('tree', { name: 'Execution tree' });
  await execTree.getByRole('treeitem', { name: /^run react, completed$/ }).click();
  const focused = () => page.evaluate(() => {
    const el = (globalThis as unknown as { document: { activeElement: { getAttribute(a: string): string | null } | null } }).document.activeElement;
    return el?.getAttribute('role') === 'treeitem' ? `${el.getAttribute('aria-label')} @${el.getAttribute('aria-level')}/${el.getAttribute('aria-posinset')}` : 'not a tree row';
  });
  await page.keyboard.press('End');
  await expect.poll(focused).toBe(`llm scripted, completed @2/${TURNS}`);
  await page.keyboard.press('Home');
  await expect.poll(focused).toBe('run react, completed @1/1');
  await execTree.hover();
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 3000);
  await expect(execTree.getByRole('treeitem', { name: /^run react, completed$/ })).not.toBeInViewport();
  expect(await focused()).toBe('run react, completed @1/1');
  await page.keyboard.press('ArrowDown');
  await expect.poll(focused).toBe('llm scripted, completed @2/1');
  // The run file is written once the run's result is on the thread, just after the run node closed.
  const runsDir = path.join(home, 'runs', thread.id);
  const runFile = () => readdirSync(runsDir).find((f) => f.endsWith('.json'));
  await expect.poll(runFile, { timeout: 30_000 }).toBeTruthy();
  const rec = JSON.parse(readFileSync(path.join(runsDir, runFile()!), 'utf8')) as RunRecord;
  expect(rec.status).toBe('completed');
  expect(rec.nodes.filter((n) => n.kind === 'llm' && n.status === 'completed')).toHaveLength(TURNS);
  expect(rec.nodes.filter((n) => n.kind === 'tool' && n.status === 'completed')).toHaveLength(TURNS - 1);
  // Each call's raw request holds the whole conversation; the run file keeps what it adds to the
  // call before (the last call: 1 of its 200 messages, the previous turn's reply with its tool result), not the square of the turns.
  const lastCall = rec.records.at(-1)!;
  expect((lastCall.requestBase as RequestBase | undefined)?.prefix).toEqual({ messages: TURNS - 1 });
  expect(JSON.stringify(lastCall).length).toBeLessThan(4000);

  // The thread, as the person checks it: one user message and one reply per turn, listed
  // virtualised (only the rows near the view are in the page), saved to its file, and the last
  // reply, the model's answer, reached by scrolling the playground to its end.
  const count = TURNS + 1;
  await expect(page.getByText(`Messages (${count})`)).toBeVisible();
  const list = page.getByRole('list', { name: 'Messages' });
  expect(await list.getByRole('listitem').count()).toBeLessThan(40);
  const saved = () => (JSON.parse(readFileSync(path.join(home, 'workspace', 'Long loop.json'), 'utf8')) as { context: { messages: unknown[] } }).context.messages.length;
  await expect.poll(saved, { timeout: 30_000 }).toBe(count);
  const last = page.getByLabel(`assistant message ${count}`, { exact: true });
  const scroller = page.locator('.mantine-ScrollArea-viewport').filter({ has: list });
  await scroller.hover();
  for (let i = 0; i < 200 && !(await shown(page, last, scroller)); i++) {
    await page.mouse.wheel(0, 4000);
    await page.waitForTimeout(30);
  }
  await expect(last).toContainText(`All done after ${TURNS} turns.`);
  expect(await shown(page, last, scroller)).toBe(true);
  expect(await list.getByRole('listitem').count()).toBeLessThan(40);
  // The turn before it: its tool call's result is in its editor.
  await expect(page.getByLabel(`assistant message ${count - 1}`, { exact: true }).getByRole('textbox', { name: 'Result of echo' })).toContainText(`turn ${TURNS - 1}`);

  // The last call's raw request, opened from its address, is the whole request as sent: its 200
  // messages from the first user message on.
  const lastLlm = rec.nodes.filter((n) => n.kind === 'llm').at(-1)!;
  const tab = await page.context().newPage();
  await tab.goto(`${serve.url}#${new URLSearchParams({ thread: 'Long loop.json', run: rec.runId, node: lastLlm.id })}`);
  await tab.getByText(/Raw request \(scripted\)/).click();
  const raw = tab.getByRole('textbox', { name: 'Raw provider request' });
  await expect(raw).toContainText(`"messageCount": ${TURNS}`);
  await expect(raw).toContainText('"text": "hello"');
  await tab.close();

  // The run's result is one undo step: Undo takes its 200 messages back out, and the host, which
  // checks each patch's path, saves that; Redo puts them back.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByText('Messages (1)')).toBeVisible();
  await expect.poll(saved, { timeout: 30_000 }).toBe(1);
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect(page.getByText(`Messages (${count})`)).toBeVisible();
  await expect.poll(saved, { timeout: 30_000 }).toBe(count);
});

/** Whether `el` is in the page and inside `viewport`'s box. */
async function shown(page: Page, el: Locator, viewport: Locator): Promise<boolean> {
  if ((await el.count()) === 0) return false;
  const box = await el.boundingBox();
  const view = await viewport.boundingBox();
  return !!box && !!view && box.y < view.y + view.height && box.y + box.height > view.y;
}

/**
 * Watches the execution tree's rows for `frames` frames (after each frame's layout, through a
 * ResizeObserver) and returns each overlap seen: a row whose top is above the bottom of the row
 * before it.
 */
async function treeOverlaps(page: Page, frames: number): Promise<string[]> {
  return page.evaluate((total) => new Promise<string[]>((resolve) => {
    // The page's DOM, typed for what is used here (the e2e project has no DOM library).
    type Box = { top: number; bottom: number };
    type Row = { getAttribute(a: string): string | null; getBoundingClientRect(): Box };
    const w = globalThis as unknown as {
      document: { querySelectorAll(s: string): ArrayLike<Row> };
      requestAnimationFrame(f: () => void): number;
      ResizeObserver: new (f: () => void) => { observe(r: Row): void; disconnect(): void };
    };
    const found: string[] = [];
    let seen = 0;
    const rows = () => Array.from(w.document.querySelectorAll('[role="tree"][aria-label="Execution tree"] [role="treeitem"]'));
    const observer = new w.ResizeObserver(() => {
      const boxes = rows().map((e) => ({ name: e.getAttribute('aria-label'), box: e.getBoundingClientRect() })).sort((a, b) => a.box.top - b.box.top);
      for (let i = 1; i < boxes.length; i++) {
        if (boxes[i].box.top < boxes[i - 1].box.bottom - 1) found.push(`frame ${seen}: ${boxes[i].name} over ${boxes[i - 1].name}`);
      }
      if (++seen === total) {
        observer.disconnect();
        resolve(found);
      }
    });
    const observeRows = () => {
      if (seen >= total) return;
      observer.disconnect();
      for (const r of rows()) observer.observe(r);
      w.requestAnimationFrame(observeRows);
    };
    w.requestAnimationFrame(observeRows);
  }), frames);
}
