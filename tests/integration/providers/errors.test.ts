// Every provider failure ends as data (error or cancelled) with the partial output kept; never a
// rejection. Real SDK clients against a local server that returns statuses, cuts and bad data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import { createOpenAIResponsesProvider } from '../../../agent-runner/providers/openai-responses';
import type { Provider } from '../../../agent-runner/providers/types';
import { startSseServer, sseEvent, type SseServer } from '../../support/sse-server';
import { anth, anthEnd, anthMessageStart, anthTextBlock, chatChunk, chatSse, llmRequest, resp, testSink } from './fixtures';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const openai = (baseUrl = `${server.url}/v1`) => createOpenAIChatProvider({ id: 'openai', apiKey: 'sk-test', baseUrl });
const anthropic = (baseUrl = server.url) => createAnthropicProvider({ id: 'anthropic', apiKey: 'sk-ant', baseUrl });
const responses = () => createOpenAIResponsesProvider({ id: 'openai', apiKey: 'sk-test', baseUrl: `${server.url}/v1` });
const chatModel = { id: 'gpt-4.1' };
const claude = { id: 'claude-test-1', provider: 'anthropic' };

/** Runs one call and checks it resolved (never rejected). */
async function call(p: Provider, model: { id: string; provider?: string }, sink = testSink(), signal?: AbortSignal) {
  const r = await p.stream(llmRequest(model, signal ? { signal } : {}), sink).catch((e) => {
    throw new Error(`stream rejected: ${e}`);
  });
  return r;
}

describe('HTTP errors', () => {
  it('401: says the key was not accepted and where to fix it; details keep status and body', async () => {
    const body = { error: { message: 'Incorrect API key provided: sk-test.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
    server.reply({ status: 401, json: body });
    const r = await call(openai(), chatModel);
    expect(r.stopReason).toBe('error');
    expect(r.error?.code).toBe('auth');
    expect(r.error?.message).toMatch(/openai did not accept the API key \(HTTP 401\): Incorrect API key provided/);
    expect(r.error?.message).toContain('Settings');
    expect(JSON.parse(r.error!.details!)).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
  });

  it('404: names the model and the base URL', async () => {
    server.reply({ status: 404, json: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-test-1' } } });
    const r = await call(anthropic(), claude);
    expect(r.error?.code).toBe('not_found');
    expect(r.error?.message).toContain('"claude-test-1"');
    expect(r.error?.message).toContain(server.url);
  });

  it('429: includes the retry-after seconds and makes one request only (no SDK retries)', async () => {
    const before = server.requests.length;
    server.reply({ status: 429, headers: { 'retry-after': '20' }, json: { error: { message: 'Rate limit reached for gpt-4.1 on tokens per min.', type: 'tokens', code: 'rate_limit_exceeded' } } });
    const r = await call(openai(), chatModel);
    expect(r.error?.code).toBe('rate_limit');
    expect(r.error?.message).toContain('Retry after 20 s');
    expect(r.error?.message).toContain('gpt-4.1');
    expect(server.requests.length - before).toBe(1);
  });

  it('5xx: a server error with advice to try again', async () => {
    server.reply({ status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    const r = await call(anthropic(), claude);
    expect(r.error?.code).toBe('server');
    expect(r.error?.message).toMatch(/HTTP 529\): Overloaded\. .*try again/);
    server.reply({ status: 503, body: 'upstream unavailable' });
    const r2 = await call(openai(), chatModel);
    expect(r2.error?.message).toContain('HTTP 503');
  });
});

describe('network and stream failures', () => {
  it('connection refused: says it could not reach the provider at its base URL', async () => {
    const tmp = http.createServer();
    await new Promise<void>((ok) => tmp.listen(0, '127.0.0.1', ok));
    const port = (tmp.address() as AddressInfo).port;
    await new Promise<void>((ok) => tmp.close(() => ok()));
    for (const p of [openai(`http://127.0.0.1:${port}/v1`), anthropic(`http://127.0.0.1:${port}`)]) {
      const r = await call(p, chatModel);
      expect(r.error?.code).toBe('network');
      expect(r.error?.message).toContain(`127.0.0.1:${port}`);
      expect(r.error?.message).toContain('connection refused');
    }
  });

  it('OpenAI stream ending without [DONE] and without finish_reason: stream cut, partial kept', async () => {
    server.reply({ stream: [chatSse([chatChunk({ content: 'Partial ' }), chatChunk({ content: 'answer' })], false)] });
    const r = await call(openai(), chatModel);
    expect(r.content).toEqual([{ type: 'text', text: 'Partial answer' }]);
    expect(r.error?.code).toBe('stream_cut');
    expect(r.error?.message).toContain('no finish_reason');
    // A finish_reason without [DONE] (some compatible servers) is a complete reply.
    server.reply({ stream: [chatSse([chatChunk({ content: 'ok' }), chatChunk({}, 'stop')], false)] });
    expect((await call(openai(), chatModel)).error).toBeUndefined();
  });

  it('socket destroyed mid-stream: stream cut with tool call arguments kept', async () => {
    server.reply({
      stream: [
        chatSse([chatChunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":' } }] })], false),
        { destroy: true },
      ],
    });
    const r = await call(openai(), chatModel);
    expect(r.error?.code).toBe('stream_cut');
    expect(r.toolCalls).toEqual([{ id: 'c1', name: 'f', arguments: {}, rawArguments: '{"a":' }]);
  });

  it('Anthropic stream without message_stop: stream cut, partial kept', async () => {
    server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['Hal', 'f'])] });
    const r = await call(anthropic(), claude);
    expect(r.content).toEqual([{ type: 'text', text: 'Half' }]);
    expect(r.error?.code).toBe('stream_cut');
    expect(r.error?.message).toContain('message_stop');
    expect(r.error?.message).toContain('claude-test-1');
  });

  it('Responses stream without response.completed: stream cut', async () => {
    server.reply({ stream: [resp({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'Hi' })] });
    const r = await call(responses(), chatModel);
    expect(r.content).toEqual([{ type: 'text', text: 'Hi' }]);
    expect(r.error?.code).toBe('stream_cut');
  });

  it('invalid JSON in an SSE data line: malformed, partial kept', async () => {
    server.reply({ stream: [sseEvent(chatChunk({ content: 'Good ' })), 'data: {"choices": [\n\n'] });
    const r = await call(openai(), chatModel);
    expect(r.content).toEqual([{ type: 'text', text: 'Good ' }]);
    expect(r.error?.code).toBe('malformed');
    server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['Ok']), 'event: content_block_delta\ndata: {oops\n\n'] });
    const a = await call(anthropic(), claude);
    expect(a.content).toEqual([{ type: 'text', text: 'Ok' }]);
    expect(a.error?.code).toBe('malformed');
  });

  it('a second message_start for another message: protocol error, later events ignored', async () => {
    server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['One']) + anthMessageStart(25, 0, 'msg_02Another') + anthTextBlock(1, ['Two']) + anthEnd('end_turn', 2)] });
    const r = await call(anthropic(), claude);
    expect(r.error?.code).toBe('protocol');
    expect(r.error?.message).toContain('second message_start');
    expect(r.content).toEqual([{ type: 'text', text: 'One' }]);
  });

  it('Anthropic error event mid-stream: overloaded message, partial kept, event recorded', async () => {
    server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['Start']) + anth({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })] });
    const sink = testSink();
    const r = await call(anthropic(), claude, sink);
    expect(r.content).toEqual([{ type: 'text', text: 'Start' }]);
    expect(r.error?.code).toBe('stream_error');
    expect(r.error?.message).toContain('overloaded_error');
    expect(sink.events.at(-1)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });
});

describe('abort', () => {
  for (const [name, make, model, first] of [
    ['openai', () => openai(), chatModel, sseEvent(chatChunk({ content: 'Streaming…' }))],
    ['anthropic', () => anthropic(), claude, anthMessageStart() + anthTextBlock(0, ['Streaming…']).split('event: content_block_stop')[0]],
  ] as const) {
    it(`${name}: abort mid-stream keeps the partial text and ends cancelled`, async () => {
      server.reply({ stream: [first, { hang: true }] });
      const ac = new AbortController();
      const closed = server.clientClosed();
      const sink = testSink((c) => {
        if (c[0] === 'text') ac.abort();
      });
      const r = await call(make(), model, sink, ac.signal);
      expect(r.cancelled).toBe(true);
      expect(r.stopReason).toBe('cancelled');
      expect(r.error).toBeUndefined();
      expect(r.content).toEqual([{ type: 'text', text: 'Streaming…' }]);
      await closed; // the HTTP request was really closed
    });
  }

  it('an already aborted signal sends nothing and ends cancelled', async () => {
    const before = server.requests.length;
    const ac = new AbortController();
    ac.abort();
    const r = await call(openai(), chatModel, testSink(), ac.signal);
    expect(r.cancelled).toBe(true);
    expect(server.requests.length).toBe(before);
  });
});
