/**
 * Model controls and provider profiles in the browser (issue 17 items 12 and 13): a connection
 * profile added from a preset in Settings and tested, the model id picked from the provider's
 * `/models`, controls set in the model section, a run against a local OpenAI-compatible server,
 * and the request the real `openai` client sent, both as received and as the raw-request view
 * shows it. Another API's missing controls are disabled with the reason.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';
import { sseEvent, startSseServer, type SseServer } from '../support/sse-server';

const MODELS = { object: 'list', data: ['local-model', 'other-model'].map((id) => ({ id, object: 'model', created: 1, owned_by: 'me' })) };
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'local-model', choices: [{ index: 0, delta, finish_reason: finish }] });
const REPLY = [chunk({ role: 'assistant', content: '{"ok":' }), chunk({ content: 'true}' }), chunk({}, 'stop')].map((c) => sseEvent(c)).join('') + 'data: [DONE]\n\n';

let server: SseServer;
test.beforeEach(async () => {
  server = await startSseServer();
});
test.afterEach(async () => {
  await server.close();
});

/** Picks `option` in the combobox labelled `label`. */
async function pick(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('combobox', { name: label, exact: true })).toHaveValue(option);
}

test('a profile from a preset, tested; controls set in the model section reach the server and the raw request', async ({ page, serve }) => {
  const thread = {
    version: 1,
    id: crypto.randomUUID(),
    title: 'Controls',
    model: { provider: 'scripted', id: 'scripted', params: {} },
    context: {
      systemPrompt: 'Answer in JSON.',
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: [{ id: crypto.randomUUID(), role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }],
    },
    runRefs: [],
  };
  const file = path.join(serve.home, 'workspace', 'Controls.json');
  writeFileSync(file, JSON.stringify(thread, null, 2));
  await page.goto(serve.url);

  // Settings: a vLLM profile from its preset, named, pointed at the local server, then tested.
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('combobox', { name: 'Preset', exact: true }).click();
  await page.getByRole('option', { name: 'vLLM', exact: true }).click();
  await expect(dialog.getByRole('textbox', { name: 'Base URL (optional)' })).toHaveValue('http://localhost:8000/v1');
  await expect(dialog.getByRole('textbox', { name: 'Id', exact: true })).toHaveValue('vllm');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Local work');
  await dialog.getByRole('textbox', { name: 'Base URL (optional)' }).fill(`${server.url}/v1`);
  await dialog.getByRole('button', { name: 'Save provider' }).click();
  await expect(dialog.getByRole('cell', { name: 'Local work', exact: true })).toBeVisible();
  server.reply({ json: MODELS });
  await dialog.getByRole('button', { name: 'Test vllm' }).click();
  await expect(dialog.getByRole('status', { name: 'Test of vllm' })).toContainText(`OK: Connected to "vllm" at ${server.url}/v1: 2 models.`);
  expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
  await shot(page, 'model-controls-01-settings');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // The thread on that profile, its model picked from the provider's list.
  await page.getByRole('treeitem', { name: 'thread Controls' }).click();
  await pick(page, 'Provider', 'Local work (vllm)');
  server.reply({ json: MODELS });
  await page.getByRole('combobox', { name: 'Model id', exact: true }).click();
  await page.getByRole('combobox', { name: 'Model id', exact: true }).fill('local');
  await page.getByRole('option', { name: 'local-model', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Model id', exact: true })).toHaveValue('local-model');

  // The controls.
  await page.getByRole('button', { name: 'More parameters' }).click();
  await page.getByRole('textbox', { name: 'Top P', exact: true }).fill('0.9');
  await page.getByRole('textbox', { name: 'Seed', exact: true }).fill('7');
  await page.getByRole('combobox', { name: 'Stop sequences', exact: true }).fill('END');
  await page.keyboard.press('Enter');
  await pick(page, 'Reasoning effort', 'low');
  await pick(page, 'Tool choice', 'tool: get_weather');
  await pick(page, 'Parallel tool calls', 'one at a time');
  await pick(page, 'Response format', 'JSON object');
  await expect.poll(() => JSON.parse(readFileSync(file, 'utf8')).model).toEqual({
    provider: 'vllm',
    id: 'local-model',
    params: { topP: 0.9, seed: 7, stopSequences: ['END'], reasoning: { effort: 'low' }, toolChoice: { type: 'function', name: 'get_weather' }, parallelToolCalls: false, responseFormat: { type: 'json_object' } },
  });
  await shot(page, 'model-controls-02-controls');

  server.reply({ stream: [REPLY] });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const llm = page.getByRole('treeitem', { name: /^llm .*, completed$/ });
  await expect(llm).toBeVisible({ timeout: 30_000 });
  const expected = {
    model: 'local-model',
    top_p: 0.9,
    seed: 7,
    stop: ['END'],
    reasoning_effort: 'low',
    tool_choice: { type: 'function', function: { name: 'get_weather' } },
    parallel_tool_calls: false,
    response_format: { type: 'json_object' },
  };
  const received = server.requests.at(-1)!;
  expect(received.path).toBe('/v1/chat/completions');
  expect(received.body).toMatchObject(expected);

  // The raw request the detail panel shows is the body that was sent.
  await llm.click();
  await page.getByRole('button', { name: 'Raw request (openai-completions)' }).click();
  const raw = page.getByRole('textbox', { name: 'Raw provider request' });
  await expect(raw).toContainText('"top_p": 0.9');
  await expect(raw).toContainText('"parallel_tool_calls": false');
  await expect(raw).toContainText('"reasoning_effort": "low"');
  // The editor draws the lines in view: the rest of the body is below.
  await raw.hover();
  await page.mouse.wheel(0, 4000);
  await expect(raw).toContainText('"seed": 7');
  await expect(raw).toContainText('"stop": [    "END"  ]');
  await expect(raw).toContainText('"tool_choice": {    "type": "function",    "function": {      "name": "get_weather"    }  }');
  await expect(raw).toContainText('"response_format": {    "type": "json_object"  }');
  await shot(page, 'model-controls-03-raw-request');

  // On Anthropic Messages, seed and top-p do not exist: disabled, and the values kept are named as not sent.
  // (The run folded the settings away: open them.)
  await page.getByRole('button', { name: /^Thread setup/ }).click();
  await pick(page, 'Provider', 'anthropic');
  await expect(page.getByRole('textbox', { name: 'Seed', exact: true })).toBeDisabled();
  await expect(page.getByRole('textbox', { name: 'Top P', exact: true })).toBeDisabled();
  const unsent = page.getByRole('status', { name: 'Parameters not sent' });
  await expect(unsent).toContainText('Anthropic Messages has no seed.');
  await expect(unsent).toContainText('Response format "json_object" is not one this API takes.');
});
