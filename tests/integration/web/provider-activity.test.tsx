// @vitest-environment jsdom
/**
 * A window opening a thread whose replies hold what real provider streams now keep: provider-run
 * tool blocks (Anthropic web search, the MCP connector), a refusal with the provider's
 * explanation, a custom (free-form) tool call, and runs with usage and cost. The real App
 * (jsdom) over a real WebSocket to the real web host and host core, the thread file on disk:
 * the file validates, and the playground and run history show each of them.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act } from 'react';
import type { Thread } from '../../../shared/thread/schema';
import { threadWith, userMessage } from '../../support/threads';
import { makeHome, writeThread } from '../../support/host-harness';
import { browserShims, openWindow, until, type AppWindow } from '../../support/app-window';

beforeAll(browserShims);
let win: AppWindow | undefined;
afterEach(async () => {
  await win?.close();
  win = undefined;
});

function thread(): Thread {
  const t = threadWith({
    messages: [
      userMessage('Weather in Paris, and my open issues?', 'u1'),
      {
        id: 'a1',
        role: 'assistant',
        content: [
          { type: 'server_tool', block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'paris weather' } } },
          { type: 'server_tool', block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.org', title: 'W', encrypted_content: 'Eq' }] } },
          { type: 'server_tool', block: { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'list_issues', server_name: 'github', input: { repo: 'a/b' } } },
          { type: 'server_tool', block: { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: '3 open issues' }] } },
          { type: 'text', text: 'Sunny; 3 issues.' },
        ],
        usage: { inputTokens: 400, outputTokens: 30, cacheReadTokens: 50, costUsd: 0.0123 },
      },
      userMessage('Now something forbidden', 'u2'),
      { id: 'a2', role: 'assistant', content: [], stopReason: 'content_filter', errorMessage: 'anthropic (model x) refused to answer (stop reason "refusal"): category cyber — Malware development is not supported. The partial reply is kept.' },
      userMessage('Query user 1', 'u3'),
      { id: 'a3', role: 'assistant', content: [], toolCalls: [{ id: 'call_sql1', name: 'run_sql', arguments: {}, rawArguments: 'SELECT name FROM users WHERE id = 1;', custom: true }] },
    ],
    tools: [{ type: 'function', name: 'run_sql', parameters: {}, custom: { format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } } }],
  });
  t.runRefs = [
    { id: 'run_a', startedAt: 1, endedAt: 2, status: 'completed', mode: 'react', usage: { inputTokens: 400, outputTokens: 30, cacheReadTokens: 50, costUsd: 0.0123 } },
    { id: 'run_b', startedAt: 3, endedAt: 4, status: 'completed', mode: 'step', usage: { inputTokens: 100, outputTokens: 10, reasoningTokens: 4, costUsd: 0.0001 } },
  ];
  return t;
}

describe('provider activity in the window', () => {
  it('shows provider-run tools, a refusal\'s explanation and a custom call\'s input', async () => {
    const home = makeHome();
    writeThread(home, 'activity.json', thread());
    win = await openWindow(home, 'activity.json');
    await until(() => document.body.textContent?.includes('Sunny; 3 issues.') || document.querySelector('[aria-label="Text of message 2"]'), 'the thread to open');
    await until(() => document.querySelector('[aria-label="provider-run tool activity 1"]'), 'the provider-run tool lines');
    const lines = [...document.querySelectorAll('[aria-label^="provider-run tool activity"]')].map((e) => e.textContent);
    expect(lines).toEqual([
      '⚙ web_search {"query":"paris weather"}',
      '⚙ web_search_tool_result → 1 item',
      '⚙ list_issues @github {"repo":"a/b"}',
      '⚙ mcp_tool_result → 3 open issues',
    ]);
    // The message cards mount one per task (the virtualised list): wait for the last ones.
    await until(() => document.body.textContent?.includes('Malware development is not supported'), "the refusal's explanation");
    await until(() => document.querySelector('[aria-label="Free-form input of run_sql"]'), "the custom call's input");
    const text = document.body.textContent!;
    expect(document.querySelector('[aria-label="Free-form input of run_sql"]')?.textContent).toContain('SELECT name FROM users WHERE id = 1;');
    expect(text).not.toContain("The model's raw arguments did not parse");
    expect(text).toContain('400→30 tok · $0.0123');

    // Run history: each run's usage, and the thread's, cached and reasoning tokens included.
    const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent === 'Run history') as HTMLElement;
    await act(async () => tab.click());
    await until(() => document.querySelector('[aria-label="usage of this thread"]'), 'the thread usage line');
    expect(document.querySelector('[aria-label="usage of this thread"]')!.textContent).toBe('All runs of this thread: 500 in · 40 out · 50 cached · 4 reasoning · $0.0124');
    expect(document.querySelector('[aria-label="usage of run run_a"]')?.textContent).toBe('400 in · 30 out · 50 cached · $0.0123');
  });
});
