// The connection settings every wire provider shares (sdk-provider.ts), for each of the three
// wire APIs through its real SDK client against a local SSE server: key, headers, base URL
// path, and SDK retries only when configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { createOpenAIResponsesProvider } from '../../../agent-runner/providers/openai-responses';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import type { SdkProviderOptions } from '../../../agent-runner/providers/sdk-provider';
import type { Provider } from '../../../agent-runner/providers/types';
import { startSseServer, type SseServer } from '../../support/sse-server';
import { anthEnd, anthMessageStart, anthTextBlock, chatTextSse, llmRequest, resp, respResponse, testSink } from './fixtures';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

interface Wire {
  name: string;
  make: (opts: SdkProviderOptions) => Provider;
  /** The base URL under the server, and the path the request goes to. */
  base: string;
  path: string;
  /** A stream that says "ok" and ends normally. */
  ok: () => string;
}

const wires: Wire[] = [
  { name: 'openai chat', make: createOpenAIChatProvider, base: '/v1', path: '/v1/chat/completions', ok: () => chatTextSse(['ok']) },
  {
    name: 'openai responses',
    make: createOpenAIResponsesProvider,
    base: '/v1',
    path: '/v1/responses',
    ok: () => resp({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'ok' }) + resp({ type: 'response.completed', response: respResponse('completed') }),
  },
  { name: 'anthropic', make: createAnthropicProvider, base: '', path: '/v1/messages', ok: () => anthMessageStart() + anthTextBlock(0, ['ok']) + anthEnd('end_turn', 1) },
];

describe.each(wires)('$name on its SDK client', (w) => {
  const opts = (extra: Partial<SdkProviderOptions> = {}): SdkProviderOptions => ({ id: 'p', apiKey: 'sk-shared', baseUrl: `${server.url}${w.base}`, ...extra });

  it('sends the key and the configured headers to the API path under the base URL', async () => {
    server.reply({ stream: [w.ok()] });
    const r = await w.make(opts({ headers: { 'x-team': 'qa' } })).stream(llmRequest({ id: 'm' }), testSink());
    expect(r.error).toBeUndefined();
    expect(r.content).toEqual([{ type: 'text', text: 'ok' }]);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe(w.path);
    expect(sent.headers['x-team']).toBe('qa');
    // Both SDKs send the key as a bearer token (this @anthropic-ai/sdk version too).
    expect(sent.headers.authorization).toBe('Bearer sk-shared');
  });

  it('does not retry by default, and retries as often as configured', async () => {
    const busy = { status: 503, headers: { 'retry-after-ms': '1' }, json: { error: { message: 'busy' } } };
    let before = server.requests.length;
    server.reply(busy);
    const once = await w.make(opts()).stream(llmRequest({ id: 'm' }), testSink());
    expect(once.error?.code).toBe('server');
    expect(server.requests.length - before).toBe(1);

    before = server.requests.length;
    server.reply(busy, { stream: [w.ok()] });
    const retried = await w.make(opts({ retries: 1 })).stream(llmRequest({ id: 'm' }), testSink());
    expect(retried.error).toBeUndefined();
    expect(retried.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests.length - before).toBe(2);
  });
});
