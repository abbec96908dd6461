// OpenAI Chat Completions through the real `openai` client against a local SSE server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { startSseServer, chunkBytes, splitAt, sseEvent, type SseServer } from '../../support/sse-server';
import { chatChunk, chatSse, chatTextSse, chatUsageChunk, llmRequest, testSink } from './fixtures';
import type { Message } from '../../../shared/thread/messages';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const provider = (id = 'openai') => createOpenAIChatProvider({ id, apiKey: 'sk-test', baseUrl: `${server.url}/v1` });
const model = { id: 'gpt-4.1' };

describe('openai chat completions', () => {
  it('streams text, records request and events, reports usage', async () => {
    server.reply({ stream: [chatTextSse(['Hel', 'lo', ' world'], [31, 3])] });
    const sink = testSink();
    const r = await provider().stream(llmRequest({ ...model, params: { temperature: 0.2, maxTokens: 50 } }), sink);
    expect(r.error).toBeUndefined();
    expect(r.content).toEqual([{ type: 'text', text: 'Hello world' }]);
    expect(r.stopReason).toBe('stop');
    expect(r.usage).toEqual({ inputTokens: 31, outputTokens: 3 });
    expect(sink.allText()).toBe('Hello world');
    // The request as sent: system prompt first, stream with usage, compatible max_tokens.
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({
      model: 'gpt-4.1',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 50,
      messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Hello' }],
    });
    expect(sink.requests).toEqual([sent.body]);
    expect(sink.events).toHaveLength(6);
    expect(sink.calls[0][0]).toBe('request');
  });

  it('streams reasoning_content and reasoning as thinking before the text', async () => {
    server.reply({
      stream: [
        chatSse([
          chatChunk({ role: 'assistant', content: null, reasoning_content: 'Let me ' }),
          chatChunk({ reasoning_content: 'think.' }),
          chatChunk({ reasoning: ' More.' }),
          chatChunk({ content: 'Answer' }),
          chatChunk({}, 'stop'),
          chatUsageChunk(10, 20, 4, 12),
        ]),
      ],
    });
    const sink = testSink();
    const r = await provider('deepseek').stream(llmRequest(model), sink);
    expect(r.content).toEqual([{ type: 'thinking', thinking: 'Let me think. More.' }, { type: 'text', text: 'Answer' }]);
    expect(r.usage).toEqual({ inputTokens: 10, outputTokens: 20, cacheReadTokens: 4, reasoningTokens: 12 });
    expect(sink.calls.filter((c) => c[0] === 'thinking').map((c) => c[2])).toEqual([0, 0, 0]);
    expect(sink.calls.find((c) => c[0] === 'text')?.[2]).toBe(1);
  });

  it('assembles parallel tool calls with interleaved argument fragments', async () => {
    server.reply({
      stream: [
        chatSse([
          chatChunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
          chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
          chatChunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz"' } }] }),
          chatChunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
          chatChunk({ tool_calls: [{ index: 1, function: { arguments: ':"CET"}' } }] }),
          chatChunk({ tool_calls: [{ index: 2, id: 'call_c', type: 'function', function: { name: 'ping', arguments: '' } }] }),
          chatChunk({}, 'tool_calls'),
          chatUsageChunk(50, 30),
        ]),
      ],
    });
    const sink = testSink();
    const r = await provider().stream(llmRequest(model, { tools: [{ name: 'get_weather', parameters: { type: 'object' } }] }), sink);
    expect(r.stopReason).toBe('tool_calls');
    expect(r.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_b', name: 'get_time', arguments: { tz: 'CET' } },
      { id: 'call_c', name: 'ping', arguments: {} },
    ]);
    expect(sink.args()).toEqual({ 0: '{"city":"Paris"}', 1: '{"tz":"CET"}' });
    // toolCallStart comes before the first toolArgs of its call.
    const order = sink.calls.filter((c) => c[0] === 'toolCallStart' || c[0] === 'toolArgs').map((c) => `${c[0]}:${c[1]}`);
    expect(order.indexOf('toolCallStart:1')).toBeLessThan(order.indexOf('toolArgs:1'));
    expect((server.requests.at(-1)!.body as any).tools).toEqual([{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }]);
  });

  it('falls back to the tool call id when a server leaves out the index', async () => {
    server.reply({
      stream: [
        chatSse([
          chatChunk({ tool_calls: [{ id: 'x1', type: 'function', function: { name: 'a', arguments: '{"n":' } }] }),
          chatChunk({ tool_calls: [{ id: 'x1', function: { arguments: '1}' } }] }),
          chatChunk({ tool_calls: [{ id: 'x2', type: 'function', function: { name: 'b', arguments: '{}' } }] }),
          chatChunk({}, 'tool_calls'),
        ]),
      ],
    });
    const r = await provider('ollama').stream(llmRequest(model), testSink());
    expect(r.toolCalls).toEqual([
      { id: 'x1', name: 'a', arguments: { n: 1 } },
      { id: 'x2', name: 'b', arguments: {} },
    ]);
  });

  it('keeps emoji and CJK intact when chunks split inside a character', async () => {
    const body = chatTextSse(['你好，世界 👋🏽', ' ✓ 日本語'], [1, 1]);
    const bytes = new TextEncoder().encode(body);
    const firstEmoji = body.indexOf('👋');
    const cut = new TextEncoder().encode(body.slice(0, firstEmoji)).length + 2; // inside the 4-byte emoji
    const cjk = new TextEncoder().encode(body.slice(0, body.indexOf('世'))).length + 1;
    server.reply({ stream: splitAt(bytes, [cjk, cut, cut + 3]) });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.content).toEqual([{ type: 'text', text: '你好，世界 👋🏽 ✓ 日本語' }]);
    server.reply({ stream: chunkBytes(bytes, 1) });
    const one = await provider().stream(llmRequest(model), testSink());
    expect(one.content).toEqual(r.content);
  });

  it('maps finish reasons; an unknown one ends the call in error, keeping the partial reply', async () => {
    for (const [wire, want] of [['length', 'length'], ['function_call', 'tool_calls']]) {
      server.reply({ stream: [chatSse([chatChunk({ content: 'x' }), chatChunk({}, wire)])] });
      const r = await provider().stream(llmRequest(model), testSink());
      expect(r.stopReason).toBe(want);
      expect(r.error).toBeUndefined();
    }
    server.reply({ stream: [chatSse([chatChunk({ content: 'partial' }), chatChunk({}, 'eos_token')])] });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.stopReason).toBe('error');
    expect(r.error).toMatchObject({ code: 'unknown_finish_reason', message: expect.stringContaining('unknown finish reason "eos_token"') });
    expect(r.content).toEqual([{ type: 'text', text: 'partial' }]);
  });

  it('sends the thread: tool calls with JSON string arguments, tool results, images; no thinking', async () => {
    server.reply({ stream: [chatTextSse(['ok'])] });
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', mimeType: 'image/png', data: 'iVBOR' }] },
      {
        id: 'a1',
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'secret' }, { type: 'text', text: 'Checking.' }],
        toolCalls: [
          { id: 'c1', name: 'read', arguments: { path: '/a' }, output: { content: [{ type: 'text', text: 'file A' }], isError: false } },
          { id: 'c2', name: 'shot', arguments: {}, output: { content: [{ type: 'image', mimeType: 'image/jpeg', data: '/9j/' }], isError: false } },
        ],
      },
    ];
    await createOpenAIChatProvider({ id: 'openai', apiKey: 'k', baseUrl: `${server.url}/v1`, headers: { 'x-team': 'qa' } }).stream(
      llmRequest({ ...model, params: { reasoning: { effort: 'low' }, responseFormat: { type: 'json_object' }, extra: { seed: 7 } } }, { messages, systemPrompt: '' }),
      testSink(),
    );
    const sent = server.requests.at(-1)!;
    expect(sent.headers['x-team']).toBe('qa');
    expect(sent.body).toMatchObject({ reasoning_effort: 'low', response_format: { type: 'json_object' }, seed: 7 });
    expect((sent.body as any).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } }] },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"/a"}' } },
          { id: 'c2', type: 'function', function: { name: 'shot', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'file A' },
      { role: 'tool', tool_call_id: 'c2', content: '(see the image below)' },
      { role: 'user', content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } }] },
    ]);
  });

  it('reports an error chunk inside the stream and keeps the partial text', async () => {
    server.reply({ stream: [sseEvent(chatChunk({ content: 'Par' })), sseEvent({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } })] });
    const sink = testSink();
    const r = await provider().stream(llmRequest(model), sink);
    expect(r.content).toEqual([{ type: 'text', text: 'Par' }]);
    expect(r.error?.code).toBe('stream_error');
    expect(r.error?.message).toContain('server had an error');
    expect(r.error?.message).toContain('gpt-4.1');
    // The error event is recorded with the others, so a replay reproduces it.
    expect(sink.events.at(-1)).toEqual({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } });
  });
});
