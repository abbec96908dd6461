/**
 * A long ReAct loop with its thread open: 200 turns of the scripted model, each calling the
 * `everything` MCP server's echo tool, in the real web host and renderer. While it runs the
 * window keeps answering (the workspace filter takes typing and Stop stays offered); the run
 * ends completed with 200 LLM calls in its run file, and the thread shows the final message.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { startServe, stopServe, type ServeProcess } from './fixtures';
import type { RunRecord } from '../../shared/protocol/host-api';
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

  await expect(page.getByRole('treeitem', { name: /^run react, completed$/ })).toBeVisible({ timeout: 400_000 });
  // The run file is written once the run's result is on the thread, just after the run node closed.
  const runsDir = path.join(home, 'runs', thread.id);
  const runFile = () => readdirSync(runsDir).find((f) => f.endsWith('.json'));
  await expect.poll(runFile, { timeout: 30_000 }).toBeTruthy();
  const rec = JSON.parse(readFileSync(path.join(runsDir, runFile()!), 'utf8')) as RunRecord;
  expect(rec.status).toBe('completed');
  expect(rec.nodes.filter((n) => n.kind === 'llm' && n.status === 'completed')).toHaveLength(TURNS);
  expect(rec.nodes.filter((n) => n.kind === 'tool' && n.status === 'completed')).toHaveLength(TURNS - 1);

  // The thread: the user's message and one reply per turn, the last one the model's answer.
  // (Scrolled to the end first, so a list that renders only what is in view shows it.)
  const last = page.getByLabel(`assistant message ${TURNS + 1}`, { exact: true });
  await expect
    .poll(
      async () => {
        await page.evaluate(() => {
          const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<{ scrollTop: number; scrollHeight: number; clientHeight: number }> } }).document;
          for (const el of doc.querySelectorAll('*')) if (el.scrollHeight > el.clientHeight) el.scrollTop = el.scrollHeight;
        });
        return last.count();
      },
      { timeout: 120_000 },
    )
    .toBe(1);
  await expect(last).toContainText(`All done after ${TURNS} turns.`);
});
