/**
 * Issue 16 [ux] item 9: a malformed thread's whole load error can be read — on hover in the
 * workspace tree (which shows three lines of it) and on opening the thread — and the run bar's
 * tooltips neither cover the thread title nor stay up after their button is pressed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { scriptedThread } from '../support/threads';
import { test, expect, type ServeProcess } from './fixtures';

/** A thread file whose eight messages each break the schema: an eight-line load error. */
function writeBroken(serve: ServeProcess): void {
  const messages = Array.from({ length: 8 }, (_, i) => ({ id: `m${i}`, role: `robot${i}`, content: [{ type: 'text', text: 'hi' }] }));
  const thread = { version: 1, id: crypto.randomUUID(), title: 'Broken one', model: { provider: 'scripted', id: 'scripted', params: {} }, context: { systemPrompt: '', tools: [], messages }, runRefs: [] };
  writeFileSync(path.join(serve.home, 'workspace', 'Broken one.json'), JSON.stringify(thread));
}

test('the whole schema error of a malformed thread shows on hover and on open', async ({ page, serve }) => {
  writeBroken(serve);
  await page.goto(serve.url);
  const entry = page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread Broken one, malformed' });
  await expect(entry).toBeVisible();
  // The tree has room for a few lines only; the last problem is in the hover tooltip.
  await entry.getByText('Broken one', { exact: true }).hover();
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText('/context/messages/0/role');
  await expect(tip).toContainText('/context/messages/7/role: expected "user" or "assistant", got "robot7"');
  await page.mouse.move(900, 600);

  // Opening it shows the whole error where the thread would be.
  await entry.getByText('Broken one', { exact: true }).click();
  const panel = page.getByRole('region', { name: 'Broken one does not load' });
  await expect(panel).toBeVisible();
  for (let i = 0; i < 8; i++) await expect(panel.getByLabel('Load error')).toContainText(`/context/messages/${i}/role: expected "user" or "assistant", got "robot${i}"`);
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toHaveCount(0);
});

test('run bar tooltips open below the bar once the pointer rests, off the thread title, and close when their button is pressed', async ({ page, serve }) => {
  const thread = scriptedThread([{ text: 'First answer.' }, { text: 'Second answer.' }], { title: 'Tooltip check', tokensPerSecond: 400 });
  writeFileSync(path.join(serve.home, 'workspace', 'Tooltip check.json'), JSON.stringify(thread));
  await page.goto(serve.url);
  await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread Tooltip check', exact: true }).click();
  const title = page.getByRole('heading', { name: 'Tooltip check', exact: true });
  await expect(title).toBeVisible();

  const run = page.getByRole('button', { name: 'Run', exact: true });
  await run.hover();
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText('Run (');
  const [t, h] = [(await tip.boundingBox())!, (await title.boundingBox())!];
  const overlaps = t.x < h.x + h.width && h.x < t.x + t.width && t.y < h.y + h.height && h.y < t.y + t.height;
  expect(overlaps, `tooltip ${JSON.stringify(t)} covers the title ${JSON.stringify(h)}`).toBe(false);

  await run.click();
  await expect(tip).toHaveCount(0);
  // After the run, with the pointer still where it was, the title is uncovered.
  await expect(page.getByText('First answer.').first()).toBeVisible({ timeout: 30_000 });
  await expect(run).toBeEnabled({ timeout: 30_000 });
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await expect(title).toBeVisible();
});
