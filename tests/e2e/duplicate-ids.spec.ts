/**
 * A thread file that repeats a message id and a tool call id, opened in Chromium through a real
 * `stepwise serve`: the playground names the repeats and is read-only; "Give duplicates new ids"
 * is one edit through the host, and Undo brings the repeats back — an edit the host must take,
 * though it refuses any other edit that makes an id repeat — and Redo makes the repair again.
 * What the host saved is read from the thread file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';

const ID = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';

const text = (t: string) => [{ type: 'text', text: t }];
const repeating = {
  version: 1,
  id: ID,
  title: 'Repeats',
  model: { provider: 'scripted', id: 'scripted', params: {} },
  context: {
    systemPrompt: '',
    tools: [],
    messages: [
      { id: 'm1', role: 'user', content: text('first') },
      { id: 'm1', role: 'user', content: text('pasted copy') },
      { id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'call_0', name: 'f', arguments: { n: 1 }, output: { content: text('ONE'), isError: false } }] },
      { id: 'u2', role: 'user', content: text('again') },
      { id: 'a2', role: 'assistant', content: [], toolCalls: [{ id: 'call_0', name: 'f', arguments: { n: 2 }, output: { content: text('TWO'), isError: false } }] },
    ],
  },
  runRefs: [],
};

test('Give duplicates new ids, Undo, Redo: each saved by the host', async ({ page, serve }) => {
  const file = path.join(serve.home, 'workspace', 'Repeats.json');
  writeFileSync(file, JSON.stringify(repeating, null, 2));
  /** Message ids and tool call ids in the file, in order. */
  const onDisk = () => {
    const t = JSON.parse(readFileSync(file, 'utf8')) as typeof repeating;
    return t.context.messages.map((m) => ('toolCalls' in m && m.toolCalls ? `${m.id}:${m.toolCalls[0].id}` : m.id)).join(' ');
  };
  await page.goto(serve.url);
  await page.getByRole('tree', { name: 'Workspace' }).getByRole('treeitem', { name: 'thread Repeats' }).click();
  const notice = page.getByRole('alert').filter({ hasText: 'This thread repeats ids' });
  await expect(notice).toContainText('Message id "m1" is used by message 1 and message 2.');
  await expect(notice).toContainText('Tool call id "call_0" is used by tool call 1 of message 3 and tool call 1 of message 5.');
  await expect(page.getByRole('button', { name: 'Add user message' })).toHaveCount(0);

  await notice.getByRole('button', { name: 'Give duplicates new ids' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add user message' })).toBeVisible();
  await expect.poll(onDisk, { timeout: 10_000 }).toBe('m1 m1-2 a1:call_0 u2 a2:call_0-2');

  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(notice).toContainText('Message id "m1" is used by message 1 and message 2.');
  await expect.poll(onDisk, { timeout: 10_000 }).toBe('m1 m1 a1:call_0 u2 a2:call_0');

  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect(notice).toHaveCount(0);
  await expect.poll(onDisk, { timeout: 10_000 }).toBe('m1 m1-2 a1:call_0 u2 a2:call_0-2');
  // No edit was refused on the way.
  await expect(page.getByRole('alert')).toHaveCount(0);
});
