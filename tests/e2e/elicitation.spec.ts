/**
 * MCP elicitation in the browser: server-everything's trigger-elicitation-request asks the
 * user for a form; the tool row waits with the request, the answer goes back to the server.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, shot, type ServeProcess } from './fixtures';

function writeElicitThread(serve: ServeProcess): void {
  const thread = {
    version: 1,
    id: crypto.randomUUID(),
    title: 'Elicit',
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 200 }, script: [{ text: 'Asking you.', toolCalls: [{ name: 'trigger-elicitation-request', arguments: {} }] }] },
    context: {
      systemPrompt: '',
      tools: [{ type: 'mcp', name: 'trigger-elicitation-request', server: 'everything', toolName: 'trigger-elicitation-request', inputSchema: { type: 'object', properties: {} } }],
      messages: [{ id: crypto.randomUUID(), role: 'user', content: [{ type: 'text', text: 'Ask me something.' }] }],
    },
    runRefs: [],
  };
  writeFileSync(path.join(serve.home, 'workspace', 'Elicit.json'), JSON.stringify(thread));
}

test('an elicitation waits on its tool row; Accept sends the answer to the server', async ({ page, serve }) => {
  writeElicitThread(serve);
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Elicit' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('treeitem', { name: 'tool trigger-elicitation-request, awaiting input' })).toBeVisible();

  await page.getByRole('button', { name: 'Run tool' }).click();
  const form = page.getByLabel('Elicitation request');
  await expect(form).toContainText('Please provide inputs', { timeout: 30_000 });
  // A form from the requested schema: labels, descriptions, defaults, choices.
  await expect(form.getByRole('textbox', { name: 'String with default', exact: true })).toHaveValue('It was a dark and stormy night.');
  await expect(form.getByRole('combobox', { name: 'Titled Single Select Enum', exact: true })).toHaveValue('Superman');
  await expect(form.getByText('Your full, legal name')).toBeVisible();
  // The required name is missing: Accept waits for it.
  await expect(form.getByRole('alert')).toHaveText('String is required');
  await expect(form.getByRole('button', { name: 'Accept' })).toBeDisabled();
  await form.getByRole('textbox', { name: 'String', exact: true }).fill('Ada Lovelace');
  // Esc in a field belongs to the field: the run is not stopped, the answer is kept.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('treeitem', { name: 'tool trigger-elicitation-request, awaiting input' })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'String', exact: true })).toHaveValue('Ada Lovelace');
  await form.getByRole('checkbox', { name: 'Boolean' }).check();
  await form.getByRole('textbox', { name: 'String with email format' }).fill('not an address');
  await expect(form.getByRole('alert')).toHaveText('String with email format must be an e-mail address');
  await form.getByRole('textbox', { name: 'String with email format' }).fill('ada@example.org');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await shot(page, '12-elicitation');
  // The same answer as JSON, for shapes a form cannot show.
  await form.getByRole('button', { name: 'Edit as JSON' }).click();
  const json = form.getByRole('textbox', { name: 'Elicitation answer' });
  await expect(json).toContainText('"name": "Ada Lovelace"');
  // The JSON is checked like the form, and its edits come back to the form.
  const edited = (await json.innerText()).replace('"integer": 42', '"integer": 500');
  await json.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(edited);
  await expect(form.getByRole('alert')).toHaveText('Integer must be at most 100');
  await form.getByRole('button', { name: 'Back to the form' }).click();
  await expect(form.getByRole('textbox', { name: 'Integer' })).toHaveValue('500');
  await form.getByRole('textbox', { name: 'Integer' }).fill('42');
  await form.getByRole('button', { name: 'Accept' }).click();
  const done = page.getByRole('treeitem', { name: 'tool trigger-elicitation-request, completed' });
  await expect(done).toContainText('User provided the requested information', { timeout: 30_000 });
  await expect(done).toContainText('Ada Lovelace');
  await expect(done).toContainText('Email: ada@example.org');
  await expect(done).toContainText('Favorite Integer: 42');
});
