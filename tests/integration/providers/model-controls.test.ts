// Model controls (issue 17 item 12) as each official SDK client sends them: the request body the
// `openai` and `@anthropic-ai/sdk` clients put on the wire, captured by a local HTTP server,
// and the same body recorded for the raw-request view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { createOpenAIResponsesProvider } from '../../../agent-runner/providers/openai-responses';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import type { Provider, ToolSpec } from '../../../agent-runner/providers/types';
import type { ModelParams } from '../../../shared/thread/model-config';
import { startSseServer, type SseServer } from '../../support/sse-server';
import { anthEnd, anthMessageStart, anthTextBlock, chatTextSse, llmRequest, resp, respResponse, testSink } from './fixtures';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const TOOLS: ToolSpec[] = [{ name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const SCHEMA = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

/** Every control set, the response format in the thread file's (Chat) shape. */
const ALL: ModelParams = {
  reasoning: { effort: 'high' },
  responseFormat: { type: 'json_schema', json_schema: { name: 'answer', schema: SCHEMA, strict: true } },
  toolChoice: { type: 'function', name: 'get_weather' },
  parallelToolCalls: false,
  stopSequences: ['END', '###'],
  seed: 42,
  topP: 0.9,
};

const chatReply = () => server.reply({ stream: [chatTextSse(['ok'])] });
const respReply = () =>
  server.reply({
    stream: [
      resp({ type: 'response.created', response: respResponse('in_progress') }) +
        resp({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'ok' }) +
        resp({ type: 'response.completed', response: respResponse('completed', { usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 } }) }),
    ],
  });
const anthReply = () => server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['ok']) + anthEnd('end_turn', 1)] });

/** Streams one call with `params` (and tools unless `noTools`); returns the body the server received, checking the recorded one is the same. */
async function sent(provider: Provider, params: ModelParams, noTools = false): Promise<Record<string, unknown>> {
  const sink = testSink();
  const r = await provider.stream(llmRequest({ id: 'm-1', params }, { tools: noTools ? [] : TOOLS }), sink);
  expect(r.error).toBeUndefined();
  const body = server.requests.at(-1)!.body as Record<string, unknown>;
  expect(sink.requests).toEqual([body]);
  return body;
}

const chat = () => createOpenAIChatProvider({ id: 'compat', apiKey: 'sk-test', baseUrl: `${server.url}/v1` });
const responses = () => createOpenAIResponsesProvider({ id: 'openai', apiKey: 'sk-test', baseUrl: `${server.url}/v1` });
const anthropic = () => createAnthropicProvider({ id: 'anthropic', apiKey: 'sk-ant-test', baseUrl: server.url });

describe('model controls on the wire', () => {
  it('Chat Completions: reasoning_effort, response_format, tool_choice, parallel_tool_calls, stop, seed, top_p', async () => {
    chatReply();
    const body = await sent(chat(), ALL);
    expect(server.requests.at(-1)!.path).toBe('/v1/chat/completions');
    expect(body).toMatchObject({
      reasoning_effort: 'high',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: SCHEMA, strict: true } },
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      stop: ['END', '###'],
      seed: 42,
      top_p: 0.9,
    });
  });

  it('Chat Completions: tool choice modes as strings; json_object; the Responses shape of a schema is sent in the Chat shape', async () => {
    chatReply();
    let body = await sent(chat(), { toolChoice: 'required', responseFormat: { type: 'json_object' } });
    expect(body).toMatchObject({ tool_choice: 'required', response_format: { type: 'json_object' } });
    chatReply();
    body = await sent(chat(), { responseFormat: { type: 'json_schema', name: 'answer', schema: SCHEMA } });
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema: SCHEMA } });
  });

  it('tool_choice and parallel_tool_calls go only with tools (the APIs refuse them without)', async () => {
    chatReply();
    const body = await sent(chat(), ALL, true);
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body).toMatchObject({ seed: 42, top_p: 0.9 });
    anthReply();
    const a = await sent(anthropic(), ALL, true);
    expect(a).not.toHaveProperty('tool_choice');
  });

  it('Responses: reasoning.effort, text.format, tool_choice, parallel_tool_calls, top_p; no stop, no seed', async () => {
    respReply();
    const body = await sent(responses(), ALL);
    expect(server.requests.at(-1)!.path).toBe('/v1/responses');
    expect(body).toMatchObject({
      reasoning: { effort: 'high', summary: 'auto' },
      text: { format: { type: 'json_schema', name: 'answer', schema: SCHEMA, strict: true } },
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      top_p: 0.9,
    });
    expect(body).not.toHaveProperty('stop');
    expect(body).not.toHaveProperty('seed');
    respReply();
    expect((await sent(responses(), { toolChoice: 'none', responseFormat: { type: 'text' } })).tool_choice).toBe('none');
    expect(server.requests.at(-1)!.body).toMatchObject({ text: { format: { type: 'text' } } });
  });

  it('Anthropic: output_config (effort, JSON schema), tool_choice {type:"tool"} with disable_parallel_tool_use, stop_sequences; no seed, no top_p', async () => {
    anthReply();
    const body = await sent(anthropic(), ALL);
    expect(server.requests.at(-1)!.path).toBe('/v1/messages');
    expect(body).toMatchObject({
      output_config: { effort: 'high', format: { type: 'json_schema', schema: SCHEMA } },
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      stop_sequences: ['END', '###'],
    });
    expect(body).not.toHaveProperty('seed');
    expect(body).not.toHaveProperty('top_p');
    expect(body).not.toHaveProperty('thinking');
  });

  it('Anthropic: required is "any", none is "none" (no parallel flag), parallel off alone is auto with the flag', async () => {
    anthReply();
    expect((await sent(anthropic(), { toolChoice: 'required' })).tool_choice).toEqual({ type: 'any' });
    anthReply();
    expect((await sent(anthropic(), { toolChoice: 'none', parallelToolCalls: false })).tool_choice).toEqual({ type: 'none' });
    anthReply();
    expect((await sent(anthropic(), { parallelToolCalls: false })).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    anthReply();
    expect(await sent(anthropic(), { parallelToolCalls: true })).not.toHaveProperty('tool_choice');
  });

  it('Anthropic thinking: a budget is enabled with budget_tokens (max_tokens leaves room); adaptive wins', async () => {
    anthReply();
    const body = await sent(anthropic(), { reasoning: { budgetTokens: 2048 } });
    expect(body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 2048 + 4096 });
    anthReply();
    expect((await sent(anthropic(), { reasoning: { adaptive: true, budgetTokens: 2048 } })).thinking).toEqual({ type: 'adaptive' });
  });

  it('an effort a given API does not take is left out, not sent to fail', async () => {
    anthReply();
    const a = await sent(anthropic(), { reasoning: { effort: 'minimal' } });
    expect(a).not.toHaveProperty('output_config');
    chatReply();
    expect(await sent(chat(), { reasoning: { effort: 'max' } })).not.toHaveProperty('reasoning_effort');
  });
});
