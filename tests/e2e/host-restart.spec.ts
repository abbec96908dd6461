/**
 * A tab left open while its host goes away: the playground turns read-only with a banner that
 * says edits are paused (typing changes nothing, so nothing typed is silently dropped). When
 * the host comes back as a new launch (same address, new token), the page says its session
 * has ended and where to go, stops retrying, and can still download the thread it shows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, startServe, stopServe, freePort, shot } from './fixtures';

const DISCONNECTED = 'Disconnected from the host — edits are paused until it reconnects';
const ENDED = "This page's session has ended (the host was restarted). Open the URL the host printed when it started (`npm start` or `stepwise serve`).";

test('a host restart ends the open tab plainly; while the host is away the playground is read-only', async ({ page }) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const first = await startServe(undefined, {}, { port });
  let second: Awaited<ReturnType<typeof startServe>> | undefined;
  try {
    await page.goto(first.url);
    await page.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
    const prompt = page.getByRole('textbox', { name: 'System prompt' });
    await prompt.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' Saved.');
    const saved = 'You are an agent that uses tools until the task is done. Saved.';
    const onDisk = () => JSON.parse(readFileSync(path.join(first.home, 'workspace', 'ReAct loop with tools.json'), 'utf8')).context.systemPrompt;
    await expect.poll(onDisk).toBe(saved);

    // The host goes away: edits pause, and say so.
    await stopServe(first, { keepHome: true });
    await expect(page.getByRole('status')).toHaveText('disconnected — reconnecting');
    await expect(page.getByRole('alert', { name: 'Disconnected' })).toContainText(DISCONNECTED);
    await prompt.click({ force: true });
    await page.keyboard.type(' Lost?');
    await page.keyboard.press('ControlOrMeta+Enter'); // Run: nothing to run against
    await expect(prompt).toHaveText(saved);
    // No field took the keys, so the window did: its `?` opened the shortcut sheet. Close it.
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await shot(page, '40-host-disconnected');

    // A new launch on the same address: the old token is refused; the page says so and stops.
    second = await startServe(first.home, {}, { port });
    const ended = page.getByRole('alert', { name: 'Session ended' });
    await expect(ended).toContainText(ENDED);
    await expect(page.getByRole('status')).toHaveText('session ended');
    await expect(page.getByRole('alert', { name: 'Disconnected' })).toHaveCount(0);
    await expect(prompt).toHaveText(saved);
    await shot(page, '41-host-session-ended');
    const refusals = () => (second!.output().match(/refused WebSocket/g) ?? []).length;
    const seen = refusals();
    expect(seen).toBeGreaterThanOrEqual(1);
    await page.waitForTimeout(6000); // longer than the longest backoff: no new attempt
    expect(refusals()).toBe(seen);

    // What the page shows can be taken to the new session.
    const [download] = await Promise.all([page.waitForEvent('download'), ended.getByRole('button', { name: 'Download thread' }).click()]);
    expect(download.suggestedFilename()).toBe('ReAct loop with tools.json');
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(file.context.systemPrompt).toBe(saved);

    // The URL the new launch printed works.
    await page.goto(second.url);
    await page.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
    await expect(page.getByRole('textbox', { name: 'System prompt' })).toHaveText(saved);
    await expect(page.getByRole('alert')).toHaveCount(0);
  } finally {
    if (second) await stopServe(second);
    else await stopServe(first);
  }
});
