/**
 * A thread of 1,000 messages (tool calls on half of them, five 1 MiB images) in the real
 * renderer through the web host: it opens at once with a bounded DOM, scrolls to its last
 * message and back, finds a message in the middle and edits it (the edit is saved: a reload
 * shows it), holds the reader's place while messages above it grow and arrive, and the
 * execution tree's "Show in thread" brings a run's message into view; a message added at the end
 * comes into view with the focus in its text. One message with 3,000 tool calls shows 50 of them
 * with buttons for more, and find shows a call further down on its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, type ServeProcess } from './fixtures';
import { longThread } from '../support/long-thread';

const TITLE = 'Long thread';
const COUNT = 1000;
/** The DOM bound of the message list (the list before virtualisation had about 125 elements per message). */
const MAX_LIST_NODES = 3000;

function seed(serve: ServeProcess): string {
  const file = path.join(serve.home, 'workspace', `${TITLE}.json`);
  writeFileSync(file, JSON.stringify(longThread({ messages: COUNT, images: 5, title: TITLE })));
  return file;
}

async function open(page: Page, serve: ServeProcess): Promise<void> {
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: `thread ${TITLE}` }).click();
  await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
}

const messages = (page: Page) => page.locator('section[aria-label^="Messages ("]');
/** The playground's scroll area. */
const scroller = (page: Page) => page.locator('.mantine-ScrollArea-viewport').filter({ has: messages(page) });
const listNodes = (page: Page) => messages(page).evaluate((el) => (el as unknown as { querySelectorAll(s: string): { length: number } }).querySelectorAll('*').length);
/** The message whose text starts with the marker `msg-<i> ` (its accessible name carries its position, which moves). */
const byMarker = (page: Page, i: number): Locator => page.getByRole('listitem').filter({ hasText: `msg-${i} ` });

async function inViewport(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const viewport = await scroller(page).boundingBox();
  return !!box && !!viewport && box.y < viewport.y + viewport.height && box.y + box.height > viewport.y;
}

/**
 * Heights of the editors in the list, by row and accessible name: the static stand-ins
 * (`static`) or the CodeMirror editors (`live`).
 */
function editorHeights(page: Page, kind: 'static' | 'live'): Promise<Record<string, number>> {
  return page.evaluate((k) => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ closest(s: string): { getAttribute(a: string): string | null; getBoundingClientRect(): { height: number } } | null; getAttribute(a: string): string | null }> } }).document;
    const out: Record<string, number> = {};
    for (const box of Array.from(doc.querySelectorAll(k === 'static' ? '.sw-static-content' : '.cm-content'))) {
      const row = box.closest('[data-row-key]');
      const frame = box.closest(k === 'static' ? '.sw-static-editor' : '.cm-editor');
      if (row && frame) out[`${row.getAttribute('data-row-key')} ${box.getAttribute('aria-label')}`] = frame.getBoundingClientRect().height;
    }
    return out;
  }, kind);
}

/** Scroll the playground with the mouse wheel until `done`, checking the DOM bound at every step. */
async function wheelUntil(page: Page, dy: number, done: () => Promise<boolean>): Promise<number> {
  await scroller(page).hover();
  let most = 0;
  for (let i = 0; i < 400 && !(await done()); i++) {
    await page.mouse.wheel(0, dy);
    await page.waitForTimeout(30);
    most = Math.max(most, await listNodes(page));
  }
  expect(await done()).toBe(true);
  return most;
}

test('a 1,000-message thread: open, scroll to the end and back, find and edit a message in the middle, reload', async ({ page, serve }) => {
  test.setTimeout(180_000);
  const file = seed(serve);
  await open(page, serve);
  await expect(page.getByText(`Messages (${COUNT})`)).toBeVisible();
  await expect(page.getByLabel('user message 1', { exact: true })).toContainText('msg-1 ');
  expect(await listNodes(page)).toBeLessThan(MAX_LIST_NODES);

  // The rows just below the viewport show their editors' text statically; scrolled into view
  // they get their editors, at the same height to the pixel: nothing below them moves.
  await page.waitForTimeout(1000);
  const statics = await editorHeights(page, 'static');
  expect(Object.keys(statics).length).toBeGreaterThan(0);
  await scroller(page).evaluate((el) => void ((el as unknown as { scrollTop: number }).scrollTop += 700));
  await expect.poll(async () => {
    const live = await editorHeights(page, 'live');
    return Object.keys(statics).filter((k) => live[k] !== undefined).length;
  }).toBeGreaterThan(0);
  const live = await editorHeights(page, 'live');
  for (const k of Object.keys(statics).filter((key) => live[key] !== undefined)) expect(Math.abs(live[k] - statics[k]), k).toBeLessThanOrEqual(0.5);

  // To the end: the last message (a tool call and its result) is reachable.
  const last = page.getByLabel(`assistant message ${COUNT}`, { exact: true });
  const most = await wheelUntil(page, 4000, async () => (await last.count()) === 1 && (await inViewport(page, last)));
  expect(most).toBeLessThan(MAX_LIST_NODES);
  await expect(last).toContainText(`msg-${COUNT} `);
  await expect(last.getByRole('textbox', { name: 'Result of get-sum' })).toHaveText(`The sum of ${COUNT} and ${COUNT * 2} is ${COUNT * 3}.`);
  // And back to the top.
  const first = page.getByLabel('user message 1', { exact: true });
  await wheelUntil(page, -4000, async () => (await first.count()) === 1 && (await inViewport(page, first)));

  // Find a message in the middle: "msg-500 " occurs once; the list scrolls to it and marks it.
  const find = page.getByRole('textbox', { name: 'Find in messages' });
  await find.fill('msg-500 ');
  await expect(page.getByText('1 of 1', { exact: true })).toBeVisible();
  const middle = page.getByLabel('assistant message 500', { exact: true });
  await expect(middle.locator('[data-find-current]')).toHaveText('msg-500 ');
  await expect.poll(() => inViewport(page, middle.locator('[data-find-current]'))).toBe(true);

  // Edit it: click into its text, type at the end.
  const text = middle.getByRole('textbox', { name: 'Text of message 500' });
  await text.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' EDITED');
  await expect(text).toContainText('EDITED');
  await expect.poll(() => JSON.parse(readFileSync(file, 'utf8')).context.messages[499].content[0].text as string, { timeout: 10_000 }).toMatch(/ EDITED$/);
  expect(await listNodes(page)).toBeLessThan(MAX_LIST_NODES);

  // A reload shows it.
  await page.reload();
  await page.getByRole('treeitem', { name: `thread ${TITLE}` }).click();
  await page.getByRole('textbox', { name: 'Find in messages' }).fill('EDITED');
  await expect(page.getByText('1 of 1', { exact: true })).toBeVisible();
  await expect(page.getByLabel('assistant message 500', { exact: true }).getByRole('textbox', { name: 'Text of message 500' })).toContainText(/msg-500 [\s\S]* EDITED$/);
});

test('find: next and previous move through the matches, Escape clears', async ({ page, serve }) => {
  seed(serve);
  await open(page, serve);
  const find = page.getByRole('textbox', { name: 'Find in messages' });
  // "msg-99" is in messages 99 and 990 to 999.
  await find.fill('msg-99');
  await expect(page.getByText('1 of 11', { exact: true })).toBeVisible();
  await find.press('Enter');
  await find.press('Enter');
  await expect(page.getByText('3 of 11', { exact: true })).toBeVisible();
  const current = page.locator('[data-find-current]');
  await expect(current).toHaveCount(1);
  await expect(page.getByLabel('user message 991', { exact: true }).locator('[data-find-current]')).toBeVisible();
  await find.press('Shift+Enter');
  await expect(page.getByText('2 of 11', { exact: true })).toBeVisible();
  await expect(page.getByLabel('assistant message 990', { exact: true }).locator('[data-find-current]')).toBeVisible();
  await page.getByRole('button', { name: 'Previous match' }).click();
  await page.getByRole('button', { name: 'Previous match' }).click();
  await expect(page.getByText('11 of 11', { exact: true })).toBeVisible(); // wraps around
  await find.press('Escape');
  await expect(find).toHaveValue('');
  await expect(current).toHaveCount(0);
});

test('arguments that do not parse yet survive scrolling their message far away and back', async ({ page, serve }) => {
  seed(serve);
  await open(page, serve);
  const find = page.getByRole('textbox', { name: 'Find in messages' });
  await find.fill('msg-500 ');
  const args = page.getByLabel('assistant message 500', { exact: true }).getByRole('textbox', { name: 'Arguments of get-sum' });
  await args.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText('{"a": 1, "b": ');
  await expect(page.getByText(/Not valid JSON yet/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeDisabled();
  await find.fill(`msg-${COUNT} `);
  await expect(page.getByLabel(`assistant message ${COUNT}`, { exact: true }).locator('[data-find-current]')).toBeVisible();
  await find.fill('msg-500 ');
  await expect(args).toHaveText('{"a": 1, "b": ');
  await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeDisabled();
});

test('the message being read stays put while messages above it grow and arrive', async ({ page, serve }) => {
  const file = seed(serve);
  await open(page, serve);
  await page.getByRole('textbox', { name: 'Find in messages' }).fill('msg-600 ');
  const reading = byMarker(page, 600);
  await expect(reading.locator('[data-find-current]')).toBeVisible();
  await page.getByRole('textbox', { name: 'Find in messages' }).fill(''); // no find scrolling from here on
  await page.waitForTimeout(500); // editors in view made, rows measured
  // Message 598 reaches 40 px into view, its text (where it grows) above the viewport's top.
  const top = (await scroller(page).boundingBox())!.y;
  const m598 = (await byMarker(page, 598).boundingBox())!;
  await scroller(page).evaluate((el, by) => { (el as unknown as { scrollTop: number }).scrollTop += by; }, m598.y + m598.height - 40 - top);
  await page.waitForTimeout(300);
  const end598 = async () => { const b = (await byMarker(page, 598).boundingBox())!; return b.y + b.height; };
  expect(Math.abs((await end598()) - top - 40)).toBeLessThanOrEqual(2);
  const before = (await reading.boundingBox())!.y;
  // Outside Stepwise: three messages arrive at the start, message 598 (above, mounted, partly in view) and
  // message 590 (far above, never mounted) grow by 20 lines each.
  const t = JSON.parse(readFileSync(file, 'utf8'));
  t.context.messages[597].content[0].text += '\nmore'.repeat(20);
  t.context.messages[589].content[0].text += '\nmore'.repeat(20);
  t.context.messages.unshift(...[1, 2, 3].map((k) => ({ id: `new-${k}`, role: 'user', content: [{ type: 'text', text: `new message ${k}` }] })));
  writeFileSync(file, JSON.stringify(t));
  await expect(page.getByText(`Messages (${COUNT + 3})`)).toBeVisible();
  await page.waitForTimeout(500);
  expect(Math.abs((await reading.boundingBox())!.y - before)).toBeLessThanOrEqual(2);
  expect(Math.abs((await end598()) - top - 40)).toBeLessThanOrEqual(2);
  await expect(page.getByLabel('assistant message 603', { exact: true })).toContainText('msg-600 ');
});

test('"Show in thread" and a double-click on an execution tree row scroll to the run\'s message', async ({ page, serve }) => {
  seed(serve);
  await open(page, serve);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const llm = page.getByRole('treeitem', { name: /^llm scripted, completed$/ });
  await expect(llm).toBeVisible({ timeout: 30_000 });
  const reply = page.getByLabel(`assistant message ${COUNT + 1}`, { exact: true });
  await expect(page.getByText(`Messages (${COUNT + 1})`)).toBeVisible();
  // After a run the pane shows its reply (issue 30); go back to the top to have somewhere to scroll from.
  await expect(reply).toContainText('Done.');
  expect(await inViewport(page, reply)).toBe(true);
  const first = page.getByLabel('user message 1', { exact: true });
  const find = page.getByRole('textbox', { name: 'Find in messages' });
  const toTop = async () => {
    await find.fill('');
    await find.fill('msg-1 ');
    await expect(first.locator('[data-find-current]')).toBeVisible();
    await expect.poll(async () => (await reply.count()) === 0 || !(await inViewport(page, reply))).toBe(true);
  };
  await toTop();
  await llm.click();
  await page.getByRole('button', { name: 'Show in thread' }).click();
  await expect(reply).toContainText('Done.');
  expect(await inViewport(page, reply)).toBe(true);
  await expect(reply).toBeFocused();
  // Back to the top, then a double-click on the row.
  await toTop();
  await llm.dblclick();
  await expect(reply).toBeFocused();
  expect(await inViewport(page, reply)).toBe(true);
});

test('Add user message and Add assistant message: the new message comes into view with the focus in its text', async ({ page, serve }) => {
  // Enough messages to be virtualised (MessageList MOUNT_ALL_UP_TO), few enough to open fast.
  const n = 60;
  writeFileSync(path.join(serve.home, 'workspace', `${TITLE}.json`), JSON.stringify(longThread({ messages: n, title: TITLE })));
  await open(page, serve);
  await expect(page.getByText(`Messages (${n})`)).toBeVisible();

  // Each new message: in view, its text focused, typed into at once.
  const typed = [['Add user message', 'typed at once'], ['Add assistant message', 'a reply']];
  for (const [i, [button, text]] of typed.entries()) {
    await page.getByRole('button', { name: button }).click();
    const editor = page.getByRole('textbox', { name: `Text of message ${n + 1 + i}`, exact: true });
    await expect(editor).toBeFocused();
    expect(await inViewport(page, editor)).toBe(true);
    await page.keyboard.type(text);
    await expect(editor).toHaveText(text);
  }
  await expect(page.getByRole('textbox', { name: `Text of message ${n + 1}`, exact: true })).toHaveText('typed at once');
});

test('a message with 3,000 tool calls shows 50 at first, more by a button, and find reaches a later call', async ({ page, serve }) => {
  const calls = Array.from({ length: 3000 }, (_, i) => ({ id: `c${i + 1}`, name: 'lookup', arguments: { key: `call-${i + 1}-key` }, output: { content: [{ type: 'text', text: `value ${i + 1}` }], isError: false } }));
  const thread = {
    version: 1,
    id: crypto.randomUUID(),
    title: 'Fan out',
    model: { provider: 'scripted', id: 'scripted', params: {}, script: [{ text: 'ok' }] },
    context: {
      systemPrompt: '',
      tools: [{ type: 'function', name: 'lookup', description: 'Looks a key up.', parameters: { type: 'object', properties: { key: { type: 'string' } } } }],
      messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Look them all up.' }] }, { id: 'a1', role: 'assistant', content: [], toolCalls: calls }],
    },
    runRefs: [],
  };
  writeFileSync(path.join(serve.home, 'workspace', 'Fan out.json'), JSON.stringify(thread));
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Fan out' }).click();
  const message = page.getByLabel('assistant message 2', { exact: true });
  const more = message.getByRole('group', { name: 'More tool calls of message 2' });
  await expect(more).toContainText('50 of 3,000 tool calls shown');
  await expect(message.locator('[aria-label^="tool call lookup "]')).toHaveCount(50);
  await more.getByRole('button', { name: 'Show 50 more' }).click();
  await expect(more).toContainText('100 of 3,000 tool calls shown');
  await expect(message.locator('[aria-label^="tool call lookup "]')).toHaveCount(100);
  // Find's match in call 2,500 shows that call on its own below the shown ones, in view.
  await page.getByRole('textbox', { name: 'Find in messages' }).fill('call-2500-key');
  await expect(page.getByText('1 of 1', { exact: true })).toBeVisible();
  await expect(message).toContainText('… tool calls 101 to 2,499 not shown …');
  await expect(more).toContainText('101 of 3,000 tool calls shown');
  await expect(message.locator('[aria-label="tool call lookup 2500"]')).toBeVisible();
  await expect(message.locator('[data-find-current]')).toBeInViewport();
});
