// Anthropic Messages streams beyond plain text and client tools, through the real
// `@anthropic-ai/sdk` client against a local SSE server: server tools (web search, web fetch,
// code execution), the MCP connector, a repeated message_start, and refusals with stop_details.
// Block shapes: @anthropic-ai/sdk ServerToolUseBlock, WebSearchToolResultBlock,
// WebFetchToolResultBlock, CodeExecutionToolResultBlock, BetaMCPToolUseBlock, BetaMCPToolResultBlock.
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import { chunkBytes, sseServerPerFile } from '../../support/sse-server';
import { anth, anthEnd, anthMessageStart, anthTextBlock, anthToolUseBlock, llmRequest, testSink } from './fixtures';
import { Value } from '@sinclair/typebox/value';
import { AssistantMessageSchema, type Message } from '../../../shared/thread/messages';
import { toAssistantMessage } from '../../../agent-runner/providers/types';

const server = sseServerPerFile();

const provider = () => createAnthropicProvider({ id: 'anthropic', apiKey: 'sk-ant-test', baseUrl: server().url });
const model = { id: 'claude-test-1', provider: 'anthropic' };

/** A block that arrives whole in content_block_start (the tool results). */
const wholeBlock = (index: number, block: Record<string, unknown>) =>
  anth({ type: 'content_block_start', index, content_block: block }) + anth({ type: 'content_block_stop', index });

/** A server or MCP tool use block whose input streams as input_json_delta pieces. */
const useBlock = (index: number, block: Record<string, unknown>, json: string[]) =>
  anth({ type: 'content_block_start', index, content_block: { ...block, input: {} } }) +
  json.map((partial_json) => anth({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })).join('') +
  anth({ type: 'content_block_stop', index });

const caller = { type: 'direct' };
const searchResult = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_01',
  caller,
  content: [{ type: 'web_search_result', url: 'https://example.org/weather', title: 'Weather', encrypted_content: 'EqgfCioIARgB', page_age: 'April 30, 2025' }],
};
const fetchResult = {
  type: 'web_fetch_tool_result',
  tool_use_id: 'srvtoolu_02',
  caller,
  content: { type: 'web_fetch_result', url: 'https://example.org/a', retrieved_at: '2025-08-25T10:30:00Z', content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Page text' }, title: 'A' } },
};
const codeResult = {
  type: 'code_execution_tool_result',
  tool_use_id: 'srvtoolu_03',
  content: { type: 'code_execution_result', stdout: '4\n', stderr: '', return_code: 0, content: [] },
};
const mcpResult = { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_01', is_error: false, content: [{ type: 'text', text: '3 open issues' }] };

function serverToolsStream(): string {
  return (
    anthMessageStart(2000, 0) +
    anthTextBlock(0, ['Let me look.']) +
    useBlock(1, { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', caller }, ['{"query": "weath', 'er Paris"}']) +
    wholeBlock(2, searchResult) +
    useBlock(3, { type: 'server_tool_use', id: 'srvtoolu_02', name: 'web_fetch', caller }, ['{"url": "https://example.org/a"}']) +
    wholeBlock(4, fetchResult) +
    useBlock(5, { type: 'server_tool_use', id: 'srvtoolu_03', name: 'code_execution' }, ['{"code": "print(2+2)"}']) +
    wholeBlock(6, codeResult) +
    useBlock(7, { type: 'mcp_tool_use', id: 'mcptoolu_01', name: 'list_issues', server_name: 'github' }, ['{"repo":', ' "a/b"}']) +
    wholeBlock(8, mcpResult) +
    anthTextBlock(9, ['Sunny, 2+2=4, 3 issues.']) +
    anthEnd('end_turn', 120)
  );
}

describe('anthropic server tools and the MCP connector', () => {
  it('keeps server tool and MCP blocks verbatim as provider-run activity, never as client tool calls', async () => {
    server().reply({ stream: chunkBytes(serverToolsStream(), 61) });
    const sink = testSink();
    const r = await provider().stream(llmRequest(model), sink);
    expect(r.error).toBeUndefined();
    expect(r.stopReason).toBe('stop');
    expect(r.toolCalls).toEqual([]);
    expect(sink.calls.filter((c) => c[0] === 'toolCallStart' || c[0] === 'toolArgs')).toEqual([]);
    expect(r.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'server_tool', block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', caller, input: { query: 'weather Paris' } } },
      { type: 'server_tool', block: searchResult },
      { type: 'server_tool', block: { type: 'server_tool_use', id: 'srvtoolu_02', name: 'web_fetch', caller, input: { url: 'https://example.org/a' } } },
      { type: 'server_tool', block: fetchResult },
      { type: 'server_tool', block: { type: 'server_tool_use', id: 'srvtoolu_03', name: 'code_execution', input: { code: 'print(2+2)' } } },
      { type: 'server_tool', block: codeResult },
      { type: 'server_tool', block: { type: 'mcp_tool_use', id: 'mcptoolu_01', name: 'list_issues', server_name: 'github', input: { repo: 'a/b' } } },
      { type: 'server_tool', block: mcpResult },
      { type: 'text', text: 'Sunny, 2+2=4, 3 issues.' },
    ]);
    // The thread stores it: the message validates against the thread schema.
    const msg = toAssistantMessage('a1', r, 'anthropic/claude-test-1');
    expect(Value.Check(AssistantMessageSchema, msg)).toBe(true);
    expect(Value.Check(AssistantMessageSchema, { ...msg, content: [{ type: 'server_tool', block: { id: 'x' } }] })).toBe(false);

    // The next turn sends every block back unchanged, in its place.
    server().reply({ stream: [anthMessageStart() + anthTextBlock(0, ['ok']) + anthEnd('end_turn', 1)] });
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      msg,
      { id: 'u2', role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ];
    const again = await provider().stream(llmRequest(model, { messages }), testSink());
    expect(again.error).toBeUndefined();
    const body = server().requests.at(-1)!.body as { messages: { role: string; content: unknown[] }[] };
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: r.content.map((p) => (p.type === 'server_tool' ? p.block : p.type === 'text' ? { type: 'text', text: p.text } : null)),
    });
    expect(body.messages[2]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Thanks' }] });
  });

  it('a paused turn with a client tool call keeps both: the server tool as activity, the client call as a tool call', async () => {
    server().reply({
      stream: [
        anthMessageStart() +
          useBlock(0, { type: 'server_tool_use', id: 'srvtoolu_09', name: 'web_search' }, ['{"query":"x"}']) +
          wholeBlock(1, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_09', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } }) +
          anthToolUseBlock(2, 'toolu_01', 'get_time', ['{}']) +
          anthEnd('tool_use', 9),
      ],
    });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.toolCalls).toEqual([{ id: 'toolu_01', name: 'get_time', arguments: {} }]);
    expect(r.content.map((p) => (p.type === 'server_tool' ? p.block.type : p.type))).toEqual(['server_tool_use', 'web_search_tool_result']);
  });
});

describe('anthropic message_start repeated by a proxy', () => {
  it('ignores a repeated message_start with the same id', async () => {
    server().reply({ stream: [anthMessageStart(30) + anthTextBlock(0, ['Hel']) + anthMessageStart(30) + anthTextBlock(1, ['lo']) + anthEnd('end_turn', 2)] });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.error).toBeUndefined();
    expect(r.content).toEqual([{ type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }]);
    expect(r.usage).toMatchObject({ inputTokens: 30, outputTokens: 2 });
  });

  it('a second message_start with another id stays an error, the partial reply kept', async () => {
    const other = anthMessageStart(25, 0, 'msg_02Other');
    server().reply({ stream: [anthMessageStart() + anthTextBlock(0, ['Hel']) + other + anthEnd('end_turn', 2)] });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r).toMatchObject({ stopReason: 'error', error: { code: 'protocol' }, content: [{ type: 'text', text: 'Hel' }] });
    expect(r.error!.message).toContain('msg_02Other');
  });
});

describe('anthropic refusals', () => {
  it('stop_reason refusal ends the call as an error with stop_details kept, partial text kept', async () => {
    const stopDetails = { type: 'refusal', category: 'cyber', explanation: 'This request could enable malware development.' };
    server().reply({
      stream: [
        anthMessageStart() +
          anthTextBlock(0, ['Here is how to ']) +
          anth({ type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: stopDetails }, usage: { output_tokens: 5 } }) +
          anth({ type: 'message_stop' }),
      ],
    });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.stopReason).toBe('content_filter');
    expect(r.error?.code).toBe('refusal');
    expect(r.error?.message).toContain('This request could enable malware development');
    expect(r.error?.message).toContain('cyber');
    expect(JSON.parse(r.error!.details!)).toEqual(stopDetails);
    expect(r.content).toEqual([{ type: 'text', text: 'Here is how to ' }]);
    const msg = toAssistantMessage('a1', r, 'anthropic/x');
    expect(msg).toMatchObject({ stopReason: 'content_filter', errorMessage: r.error!.message });
  });

  it('a refusal without stop_details is still an error', async () => {
    server().reply({ stream: [anthMessageStart() + anthEnd('refusal', 0)] });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r).toMatchObject({ stopReason: 'content_filter', error: { code: 'refusal' }, content: [] });
  });
});
