/**
 * First start: with no thread open, the app offers the offline example and the providers it
 * found ready to use (an API key in the environment), with the example thread for each.
 */
import { test, expect, startServe, stopServe, shot } from './fixtures';

test('first start offers the offline example and the providers detected from the environment', async ({ page }) => {
  const serve = await startServe(undefined, { OPENAI_API_KEY: 'sk-detected-for-test' });
  try {
    await page.goto(serve.url);
    await expect(page.getByRole('button', { name: 'Open “MCP agent, step by step”' })).toBeVisible();
    const ready = page.getByLabel('Providers ready to use');
    await expect(ready).toContainText('openai');
    await expect(ready).toContainText('key from $OPENAI_API_KEY');
    await expect(ready).not.toContainText('sk-detected-for-test');
    await shot(page, '00-first-start');
    await ready.getByRole('button', { name: 'Open “OpenAI (needs a key)”' }).click();
    await expect(page.getByRole('heading', { name: 'OpenAI (needs a key)' })).toBeVisible();
  } finally {
    await stopServe(serve);
  }
});
