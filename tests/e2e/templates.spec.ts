/**
 * Templates in the playground (docs/architecture.md#templates): define a variable and a
 * scenario, see the variable's value on hover and its name offered as a completion, preview the
 * rendered system prompt, pick the scenario, run on the scripted model, and find the rendered
 * text in the raw request and the scenario on the run in Run history; the model's reply, holding
 * template syntax, is marked as sent as written.
 */
import type { Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';

async function typeInto(page: Page, name: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name, exact: true }).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

test('a variable and a scenario: hover, completion, preview, run, raw request', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'New thread' }).click();
  await expect(page.getByRole('heading', { name: 'Untitled thread' })).toBeVisible();

  await typeInto(page, 'System prompt', 'You help {{ who }}.{% if formal %} Be formal.{% endif %}');
  await page.getByLabel(/^Variables/).fill('who=Ada\nformal=');
  await expect(page.getByText(/Not defined, sent as written/)).toHaveCount(0);

  // The value on hover.
  const prompt = page.getByRole('textbox', { name: 'System prompt', exact: true });
  await prompt.locator('.cm-tmpl-expr').first().hover();
  await expect(page.getByRole('tooltip', { name: 'Value of who' })).toHaveText('who (text) = Ada');

  // Completion of variable names after {{.
  await page.getByRole('button', { name: 'Add user message' }).click();
  const msg = page.getByRole('textbox', { name: 'Text of message 1', exact: true });
  await msg.click();
  await page.keyboard.type('Hi {{ w');
  await expect(page.getByRole('option', { name: /^who/ })).toBeVisible();
  // Enter takes the option at once (the closing }} came with the opening {{), and }} typed
  // after it steps over the ones already there.
  await page.keyboard.press('Enter');
  await expect(msg).toHaveText('Hi {{ who}}');
  await expect(msg.locator('.cm-line')).toHaveCount(1);
  await page.keyboard.type(' | upper }}');
  await expect(msg).toHaveText('Hi {{ who | upper }}');

  // Preview of the system prompt as the next run would send it.
  await page.getByRole('button', { name: 'Preview system prompt' }).click();
  await expect(page.getByLabel('Rendered system prompt')).toHaveText('You help Ada.');

  // A scenario that overrides both variables, picked for the next run.
  await page.getByRole('button', { name: 'Add scenario' }).click();
  await page.getByRole('textbox', { name: 'Scenario 1 name' }).fill('formal Bob');
  await page.getByLabel('Values of formal Bob (NAME=value, overriding the variables)').fill('who=Bob\nformal=yes');
  await page.getByLabel('Scenario', { exact: true }).click();
  await page.getByRole('option', { name: 'formal Bob' }).click();
  await expect(page.getByLabel('Rendered system prompt')).toHaveText('You help Bob. Be formal.');
  await page.getByRole('button', { name: 'Preview message 1' }).click();
  await expect(page.getByLabel('Rendered message 1')).toHaveText('Hi BOB');

  // A template error shows in the preview with its place, line and column.
  await typeInto(page, 'System prompt', 'You help {{ who }}.{% iff formal %}');
  await expect(page.getByRole('alert').filter({ hasText: 'Template error' })).toContainText('systemPrompt, line 1, column 23: unknown block tag: iff');
  await typeInto(page, 'System prompt', 'You help {{ who }}.{% if formal %} Be formal.{% endif %}');
  await expect(page.getByLabel('Rendered system prompt')).toHaveText('You help Bob. Be formal.');

  await typeInto(page, 'Scripted model script', JSON.stringify([{ text: 'Good day. In Jinja: {% if user %}{{ user.name }}' }]));
  await shot(page, '40-templates');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('treeitem', { name: /^run step, completed$/ })).toBeVisible({ timeout: 60_000 });

  // The raw request carries the rendered text; the thread keeps its templates.
  await page.getByRole('treeitem', { name: /^llm scripted, completed$/ }).click();
  await page.getByText(/Raw request \(scripted\)/).click();
  const raw = page.getByRole('textbox', { name: 'Raw provider request' });
  await expect(raw).toContainText('"system": "You help Bob. Be formal."');
  await expect(raw).toContainText('"text": "Hi BOB"');
  // The run folded the settings away (the conversation is what the pane shows): open them.
  await page.getByRole('button', { name: /^Thread setup/ }).click();
  await expect(prompt).toHaveText('You help {{ who }}.{% if formal %} Be formal.{% endif %}');

  // The model's reply holds template syntax: it is sent as written, and the card says so.
  await expect(page.getByLabel('message 2 is sent as written')).toHaveText('Sent as written, not a template: written by a model');
  await expect(page.getByRole('button', { name: 'Preview message 2' })).toHaveCount(0);

  await page.getByRole('tab', { name: 'Run history' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Run history' })).toContainText('formal Bob');
});
