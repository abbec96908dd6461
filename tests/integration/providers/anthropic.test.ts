// Anthropic Messages through the real `@anthropic-ai/sdk` client against a local SSE server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import { startSseServer, chunkBytes, type SseServer } from '../../support/sse-server';
import { anth, anthEnd, anthMessageStart, anthTextBlock, anthToolUseBlock, llmRequest, testSink } from './fixtures';
import type { Message } from '../../../shared/thread/messages';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const provider = () => createAnthropicProvider({ id: 'anthropic', apiKey: 'sk-ant-test', baseUrl: server.url });
const model = { id: 'claude-test-1', provider: 'anthropic' };

/** A realistic thinking + text + two tool_use reply, from the streaming docs' shapes. */
function thinkingToolsStream(): string {
  return (
    anthMessageStart(472, 100) +
    anth({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }) +
    anth({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants ' } }) +
    anth({ type: 'ping' }) +
    anth({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'weather and time.' } }) +
    anth({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' } }) +
    anth({ type: 'content_block_stop', index: 0 }) +
    anth({ type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' } }) +
    anth({ type: 'content_block_stop', index: 1 }) +
    anthTextBlock(2, ['Checking ', 'both.']) +
    anthToolUseBlock(3, 'toolu_01A', 'get_weather', ['', '{"location": "San Fra', 'ncisco, CA"}']) +
    anthToolUseBlock(4, 'toolu_01B', 'get_time', []) +
    anthEnd('tool_use', 89)
  );
}

describe('anthropic messages', () => {
  it('streams thinking with signature, redacted thinking, text and tool calls; usage from start and delta', async () => {
    server.reply({ stream: chunkBytes(thinkingToolsStream(), 97) });
    const sink = testSink();
    const r = await provider().stream(llmRequest({ ...model, params: { reasoning: { budgetTokens: 2048 } } }, { tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }] }), sink);
    expect(r.error).toBeUndefined();
    expect(r.content).toEqual([
      { type: 'thinking', thinking: 'The user wants weather and time.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
      { type: 'thinking', thinking: '', redacted: true, data: 'EmwKAhgBEgy3va3pzix' },
      { type: 'text', text: 'Checking both.' },
    ]);
    expect(r.toolCalls).toEqual([
      { id: 'toolu_01A', name: 'get_weather', arguments: { location: 'San Francisco, CA' } },
      { id: 'toolu_01B', name: 'get_time', arguments: {} },
    ]);
    expect(r.stopReason).toBe('tool_calls');
    expect(r.usage).toEqual({ inputTokens: 472, outputTokens: 89, cacheReadTokens: 100 });
    expect(sink.allThinking()).toBe('The user wants weather and time.');
    expect(sink.calls.filter((c) => c[0] === 'toolCallStart').map((c) => c[1])).toEqual([0, 1]);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers.authorization).toBe('Bearer sk-ant-test'); // this SDK version sends the key as a bearer token
    expect(sent.headers['anthropic-version']).toBeTruthy();
    expect(sent.body).toMatchObject({
      model: 'claude-test-1',
      max_tokens: 2048 + 4096,
      stream: true,
      system: 'You are terse.',
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    });
  });

  it('sends thinking back with its signature and tool results as user tool_result blocks', async () => {
    server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['Done.']) + anthEnd('end_turn', 3)] });
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'Screenshot please' }] },
      {
        id: 'a1',
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Need a shot.', signature: 'sig1' },
          { type: 'thinking', thinking: '', redacted: true, data: 'opaque' },
          { type: 'thinking', thinking: 'from another provider' },
          { type: 'text', text: 'Taking it.' },
        ],
        toolCalls: [
          { id: 'toolu_1', name: 'shot', arguments: { full: true }, output: { content: [{ type: 'text', text: 'here' }, { type: 'image', mimeType: 'image/png', data: 'iVBOR' }], isError: false } },
          { id: 'toolu_2', name: 'fail', arguments: {}, output: { content: [{ type: 'text', text: 'boom' }], isError: true } },
        ],
      },
      { id: 'u2', role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ];
    const r = await provider().stream(llmRequest({ ...model, params: { maxTokens: 100, temperature: 0.5 } }, { messages }), testSink());
    expect(r.stopReason).toBe('stop');
    const body = server.requests.at(-1)!.body as any;
    expect(body.max_tokens).toBe(100);
    expect(body.temperature).toBe(0.5);
    expect(body.thinking).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Screenshot please' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Need a shot.', signature: 'sig1' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Taking it.' },
          { type: 'tool_use', id: 'toolu_1', name: 'shot', input: { full: true } },
          { type: 'tool_use', id: 'toolu_2', name: 'fail', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'here' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } }] },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'boom' }], is_error: true },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
  });

  it('maps stop reasons', async () => {
    for (const [wire, want] of [['max_tokens', 'length'], ['stop_sequence', 'stop'], ['pause_turn', 'pause_turn']]) {
      server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['x']) + anthEnd(wire, 1)] });
      const r = await provider().stream(llmRequest(model), testSink());
      expect(r.stopReason).toBe(want);
      expect(r.error).toBeUndefined();
    }
    server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['half']) + anthEnd('mystery_reason', 1)] });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r).toMatchObject({ stopReason: 'error', error: { code: 'unknown_finish_reason' }, content: [{ type: 'text', text: 'half' }] });
  });

  it('keeps emoji and CJK split across single-byte chunks', async () => {
    server.reply({ stream: chunkBytes(anthMessageStart() + anthTextBlock(0, ['漢字と😀', '🇫🇷 ok']) + anthEnd('end_turn', 4), 1) });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.content).toEqual([{ type: 'text', text: '漢字と😀🇫🇷 ok' }]);
  });
});
