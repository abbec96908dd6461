/**
 * MCP elicitation in the browser: server-everything's trigger-elicitation-request asks the
 * user for a form; the tool row waits with the request, the answer goes back to the server.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
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

async function setEditor(page: Page, name: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name }).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
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
  await shot(page, '12-elicitation');
  await setEditor(page, 'Elicitation answer', JSON.stringify({ name: 'Ada Lovelace', check: true }));
  await form.getByRole('button', { name: 'Accept' }).click();
  const done = page.getByRole('treeitem', { name: 'tool trigger-elicitation-request, completed' });
  await expect(done).toContainText('User provided the requested information', { timeout: 30_000 });
  await expect(done).toContainText('Ada Lovelace');
});
