// OpenAI Responses API through the real `openai` client against a local SSE server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIResponsesProvider } from '../../../agent-runner/providers/openai-responses';
import { startSseServer, chunkBytes, type SseServer } from '../../support/sse-server';
import { llmRequest, resp, respResponse, testSink } from './fixtures';
import type { Message } from '../../../shared/thread/messages';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const provider = () => createOpenAIResponsesProvider({ id: 'openai-r', apiKey: 'sk-test', baseUrl: `${server.url}/v1` });
const model = { id: 'gpt-5' };
const usage = { input_tokens: 40, input_tokens_details: { cached_tokens: 8 }, output_tokens: 60, output_tokens_details: { reasoning_tokens: 32 }, total_tokens: 100 };

function fullStream(): string {
  return (
    resp({ type: 'response.created', response: respResponse('in_progress') }) +
    resp({ type: 'response.in_progress', response: respResponse('in_progress') }) +
    resp({ type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }) +
    resp({ type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } }) +
    resp({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: '**Planning** ' }) +
    resp({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'call both tools' }) +
    resp({ type: 'response.output_item.done', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }) +
    resp({ type: 'response.output_item.added', output_index: 1, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }) +
    resp({ type: 'response.content_part.added', item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }) +
    resp({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Sure — ' }) +
    resp({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 1, content_index: 0, delta: '查询中' }) +
    resp({ type: 'response.output_text.done', item_id: 'msg_1', output_index: 1, content_index: 0, text: 'Sure — 查询中' }) +
    resp({ type: 'response.output_item.added', output_index: 2, item: { id: 'fc_1', type: 'function_call', status: 'in_progress', call_id: 'call_W', name: 'get_weather', arguments: '' } }) +
    resp({ type: 'response.output_item.added', output_index: 3, item: { id: 'fc_2', type: 'function_call', status: 'in_progress', call_id: 'call_T', name: 'get_time', arguments: '' } }) +
    resp({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 2, delta: '{"loc' }) +
    resp({ type: 'response.function_call_arguments.delta', item_id: 'fc_2', output_index: 3, delta: '{"tz":' }) +
    resp({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 2, delta: 'ation":"Oslo"}' }) +
    resp({ type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 2, arguments: '{"location":"Oslo"}' }) +
    // The second call's last fragment arrives only in the done event.
    resp({ type: 'response.function_call_arguments.done', item_id: 'fc_2', output_index: 3, arguments: '{"tz":"CET"}' }) +
    resp({ type: 'response.output_item.done', output_index: 3, item: { id: 'fc_2', type: 'function_call', status: 'completed', call_id: 'call_T', name: 'get_time', arguments: '{"tz":"CET"}' } }) +
    resp({ type: 'response.completed', response: respResponse('completed', { usage }) })
  );
}

describe('openai responses', () => {
  it('streams reasoning summary, text and parallel function calls; usage from response.completed', async () => {
    server.reply({ stream: chunkBytes(fullStream(), 64) });
    const sink = testSink();
    const r = await provider().stream(llmRequest({ ...model, params: { reasoning: { effort: 'high' }, maxTokens: 500 } }, { tools: [{ name: 'get_weather', parameters: { type: 'object' } }] }), sink);
    expect(r.error).toBeUndefined();
    expect(r.content).toEqual([{ type: 'thinking', thinking: '**Planning** call both tools' }, { type: 'text', text: 'Sure — 查询中' }]);
    expect(r.toolCalls).toEqual([
      { id: 'call_W', name: 'get_weather', arguments: { location: 'Oslo' } },
      { id: 'call_T', name: 'get_time', arguments: { tz: 'CET' } },
    ]);
    expect(sink.args()).toEqual({ 0: '{"location":"Oslo"}', 1: '{"tz":"CET"}' });
    expect(r.stopReason).toBe('tool_calls');
    expect(r.usage).toEqual({ inputTokens: 40, outputTokens: 60, cacheReadTokens: 8, reasoningTokens: 32 });
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body).toMatchObject({
      model: 'gpt-5',
      stream: true,
      store: false,
      instructions: 'You are terse.',
      max_output_tokens: 500,
      reasoning: { effort: 'high', summary: 'auto' },
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: false }],
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }],
    });
  });

  it('ends with length when the response is incomplete at max_output_tokens', async () => {
    server.reply({
      stream: [
        resp({ type: 'response.created', response: respResponse('in_progress') }) +
          resp({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'Once upon' }) +
          resp({ type: 'response.incomplete', response: respResponse('incomplete', { incomplete_details: { reason: 'max_output_tokens' }, usage }) }),
      ],
    });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.stopReason).toBe('length');
    expect(r.error).toBeUndefined();
    expect(r.content).toEqual([{ type: 'text', text: 'Once upon' }]);
  });

  it('reports response.failed and error events with the partial text', async () => {
    server.reply({
      stream: [
        resp({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'Half' }) +
          resp({ type: 'response.failed', response: respResponse('failed', { error: { code: 'server_error', message: 'The model failed to generate a response.' } }) }),
      ],
    });
    const failed = await provider().stream(llmRequest(model), testSink());
    expect(failed.content).toEqual([{ type: 'text', text: 'Half' }]);
    expect(failed.error?.message).toContain('The model failed to generate a response.');
    expect(failed.stopReason).toBe('error');

    server.reply({
      stream: [
        resp({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'Bit' }) +
          resp({ type: 'error', code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5.', param: null }),
      ],
    });
    const sink = testSink();
    const ev = await provider().stream(llmRequest(model), sink);
    expect(ev.content).toEqual([{ type: 'text', text: 'Bit' }]);
    expect(ev.error?.code).toBe('stream_error');
    expect(ev.error?.message).toContain('Rate limit reached for gpt-5.');
    expect(sink.events.at(-1)).toMatchObject({ type: 'error', code: 'rate_limit_exceeded' });
  });

  it('sends function calls and their outputs as input items', async () => {
    server.reply({ stream: [resp({ type: 'response.completed', response: respResponse('completed', { usage }) })] });
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        id: 'a1',
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'hidden' }, { type: 'text', text: 'Looking.' }],
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { location: 'Oslo' }, output: { content: [{ type: 'text', text: '4°C' }], isError: false } }],
      },
    ];
    const r = await provider().stream(llmRequest({ ...model, params: { responseFormat: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' } } } } }, { messages }), testSink());
    expect(r.stopReason).toBe('stop');
    const body = server.requests.at(-1)!.body as any;
    expect(body.text).toEqual({ format: { type: 'json_schema', name: 'w', schema: { type: 'object' } } });
    expect(body.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
      { role: 'assistant', content: 'Looking.' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '4°C' },
    ]);
  });
});
