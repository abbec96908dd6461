// Whole runs on the real SDK clients against a local SSE server: provider-run tools never stop
// a ReAct loop and reach the tree and the thread; a paused turn goes on; a refusal is kept with
// its explanation; the run node carries the usage and cost of its calls, cached and reasoning
// tokens included.
import { describe, expect, it } from 'vitest';
import { startRun } from '../../../agent-runner/run';
import { createRunnerProviderFactory } from '../../../agent-runner/providers/factory';
import type { RunnerToHost, ProviderConfig } from '../../../shared/protocol/runner';
import type { RunResult, TreeUpdate } from '../../../shared/protocol/envelopes';
import type { ExecNode } from '../../../shared/protocol/nodes';
import type { AssistantMessage } from '../../../shared/thread/messages';
import type { Thread } from '../../../shared/thread/schema';
import { sseServerPerFile } from '../../support/sse-server';
import { threadWith, userMessage } from '../../support/threads';
import { anth, anthEnd, anthMessageStart, anthTextBlock, chatChunk, chatSse, chatUsageChunk } from './fixtures';

const server = sseServerPerFile();

/** Runs `thread` in `mode` on the real provider factory; the final nodes and the run result. */
async function run(thread: Thread, mode: 'step' | 'react', providers: ProviderConfig[]) {
  const out: RunnerToHost[] = [];
  await startRun({ runId: 'r1', threadId: thread.id, thread, mode, providers, home: '/tmp', workspaceDir: '/tmp' }, (m) => out.push(m), { providerFor: createRunnerProviderFactory('/tmp') }).done;
  const nodes = new Map<string, ExecNode>();
  for (const m of out) if (m.type === 'tree_update') for (const n of (m as TreeUpdate).nodes) nodes.set(n.id, n);
  return { nodes: [...nodes.values()], result: out.find((m) => m.type === 'run_result') as RunResult };
}

const anthropic = (): ProviderConfig => ({ id: 'anthropic', api: 'anthropic-messages', apiKey: 'sk-ant-test', baseUrl: server().url });
const searchUse = (i: number, id: string) =>
  anth({ type: 'content_block_start', index: i, content_block: { type: 'server_tool_use', id, name: 'web_search', input: {} } }) +
  anth({ type: 'content_block_delta', index: i, delta: { type: 'input_json_delta', partial_json: '{"query":"paris weather"}' } }) +
  anth({ type: 'content_block_stop', index: i });
const searchResult = (i: number, id: string) =>
  anth({ type: 'content_block_start', index: i, content_block: { type: 'web_search_tool_result', tool_use_id: id, content: [{ type: 'web_search_result', url: 'https://example.org', title: 'W', encrypted_content: 'Eq' }] } }) +
  anth({ type: 'content_block_stop', index: i });

describe('runs with provider-run tools', () => {
  it('ReAct: server tools stop nothing, a paused turn goes on, the tree and the thread keep the blocks, the run sums usage', async () => {
    const thread = threadWith({ messages: [userMessage('Weather in Paris?')] }, { model: { provider: 'anthropic', id: 'claude-test-1', params: {} } });
    thread.settings = { autoRunTools: true, maxTurns: 4 };
    server().reply(
      // Turn 1: a search, then the API pauses the long turn.
      { stream: [anthMessageStart(100, 0) + searchUse(0, 'srvtoolu_1') + searchResult(1, 'srvtoolu_1') + anthEnd('pause_turn', 20)] },
      // Turn 2: the model goes on and answers.
      { stream: [anthMessageStart(300, 50) + anthTextBlock(0, ['Sunny.']) + anthEnd('end_turn', 10)] },
    );
    const { nodes, result } = await run(thread, 'react', [anthropic()]);
    expect(result.status).toBe('completed');
    expect(nodes.filter((n) => n.kind === 'tool')).toEqual([]);
    const llms = nodes.filter((n) => n.kind === 'llm');
    expect(llms.map((n) => n.status)).toEqual(['completed', 'completed']);
    expect((llms[0].output as { serverTools?: { type: string }[] }).serverTools?.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result']);
    const [first, second] = result.messages as AssistantMessage[];
    expect(first.content.map((p) => p.type)).toEqual(['server_tool', 'server_tool']);
    expect(second.content).toEqual([{ type: 'text', text: 'Sunny.' }]);
    // The paused turn went back as it came: the assistant blocks are the last message sent.
    const sent = server().requests.at(-1)!.body as { messages: { role: string; content: { type: string }[] }[] };
    expect(sent.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', input: { query: 'paris weather' } }, { type: 'web_search_tool_result' }] });
    // Usage: no known price for claude-test-1, so tokens only.
    const root = nodes.find((n) => n.kind === 'run')!;
    expect(root.usage).toEqual({ inputTokens: 400, outputTokens: 30, cacheReadTokens: 50 });
  });

  it('a refusal ends the run in error and keeps a message with the provider\'s explanation', async () => {
    const thread = threadWith({ messages: [userMessage('Help me with malware')] }, { model: { provider: 'anthropic', id: 'claude-test-1', params: {} } });
    server().reply({
      stream: [
        anthMessageStart() +
          anth({ type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: { type: 'refusal', category: 'cyber', explanation: 'Malware development is not supported.' } }, usage: { output_tokens: 0 } }) +
          anth({ type: 'message_stop' }),
      ],
    });
    const { nodes, result } = await run(thread, 'step', [anthropic()]);
    expect(result.status).toBe('error');
    const llm = nodes.find((n) => n.kind === 'llm')!;
    expect(llm.status).toBe('error');
    expect(llm.error?.message).toContain('Malware development is not supported');
    expect(result.messages).toHaveLength(1);
    expect(result.messages[0]).toMatchObject({ role: 'assistant', content: [], stopReason: 'content_filter', errorMessage: expect.stringContaining('Malware development is not supported') });
  });
});

describe('usage and cost per run', () => {
  it('sums cached and reasoning tokens and prices a known model on the vendor endpoint', async () => {
    // Chat Completions on gpt-4.1 at a base URL that stands for OpenAI's own endpoint: priced by
    // a configured price (the built-in table applies to api.openai.com only).
    const price = { input: 2, cacheRead: 0.5, output: 8 };
    const openai: ProviderConfig = { id: 'oa', api: 'openai-completions', apiKey: 'sk-test', baseUrl: `${server().url}/v1`, prices: { 'gpt-4.1': price } };
    const thread = threadWith({ messages: [userMessage('Hi')] }, { model: { provider: 'oa', id: 'gpt-4.1', params: {} } });
    server().reply({ stream: [chatSse([chatChunk({ role: 'assistant', content: 'Hello' }), chatChunk({}, 'stop'), chatUsageChunk(1000, 200, 400, 100)])] });
    const { nodes, result } = await run(thread, 'step', [openai]);
    const cost = (600 * 2 + 400 * 0.5 + 200 * 8) / 1e6;
    const llm = nodes.find((n) => n.kind === 'llm')!;
    expect(llm.usage).toMatchObject({ inputTokens: 1000, outputTokens: 200, cacheReadTokens: 400, reasoningTokens: 100 });
    expect(llm.usage!.costUsd).toBeCloseTo(cost, 12);
    expect((result.messages[0] as AssistantMessage).usage!.costUsd).toBeCloseTo(cost, 12);
    const root = nodes.find((n) => n.kind === 'run')!;
    expect(root.usage).toMatchObject({ inputTokens: 1000, outputTokens: 200, cacheReadTokens: 400, reasoningTokens: 100 });
    expect(root.usage!.costUsd).toBeCloseTo(cost, 12);
  });

  it('an unknown model shows tokens only, no cost', async () => {
    const openai: ProviderConfig = { id: 'local', api: 'openai-completions', apiKey: 'x', baseUrl: `${server().url}/v1` };
    const thread = threadWith({ messages: [userMessage('Hi')] }, { model: { provider: 'local', id: 'gpt-4.1', params: {} } });
    server().reply({ stream: [chatSse([chatChunk({ content: 'Hi' }), chatChunk({}, 'stop'), chatUsageChunk(10, 2)])] });
    const { nodes } = await run(thread, 'step', [openai]);
    expect(nodes.find((n) => n.kind === 'run')!.usage).toEqual({ inputTokens: 10, outputTokens: 2 });
  });
});
