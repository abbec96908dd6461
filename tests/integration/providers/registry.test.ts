// The provider registry: built-ins, lookup, $ENV keys, and clear errors for missing keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_PROVIDERS, createProvider, resolveApiKey, resolveProviderConfig } from '../../../agent-runner/providers/registry';
import { startSseServer, type SseServer } from '../../support/sse-server';
import { anthEnd, anthMessageStart, anthTextBlock, chatTextSse, llmRequest, testSink } from './fixtures';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

describe('provider registry', () => {
  it('has openai (chat completions), anthropic, scripted and replay built in; user entries win', () => {
    expect(BUILTIN_PROVIDERS.map((p) => `${p.id}:${p.api}`)).toEqual(['openai:openai-responses', 'anthropic:anthropic-messages', 'scripted:scripted', 'replay:replay']);
    const mine = { id: 'openai', api: 'openai-responses' as const, apiKey: 'sk-x' };
    expect(resolveProviderConfig('openai', [mine])).toBe(mine);
    expect(resolveProviderConfig('anthropic', [mine])?.api).toBe('anthropic-messages');
    expect(resolveProviderConfig('nope', [mine])).toBeUndefined();
  });

  it('a missing $ENV key ends the call with a clear error instead of throwing', async () => {
    const p = createProvider(resolveProviderConfig('openai', [])!, {});
    const r = await p.stream(llmRequest({ id: 'gpt-4.1' }), testSink());
    expect(r.stopReason).toBe('error');
    expect(r.error?.message).toBe('No API key for provider openai: set OPENAI_API_KEY or add a key in Settings');
    const a = await createProvider(resolveProviderConfig('anthropic', [])!, { ANTHROPIC_API_KEY: '  ' }).stream(llmRequest({ id: 'c' }), testSink());
    expect(a.error?.message).toBe('No API key for provider anthropic: set ANTHROPIC_API_KEY or add a key in Settings');
  });

  it('resolves $ENV keys and literal keys, and never sends the OpenAI key to another base URL', () => {
    expect(resolveApiKey({ id: 'o', api: 'openai-completions', apiKey: '$MY_KEY' }, { MY_KEY: 'sk-env' })).toEqual({ key: 'sk-env' });
    expect(resolveApiKey({ id: 'o', api: 'openai-completions', apiKey: 'sk-lit' }, {})).toEqual({ key: 'sk-lit' });
    expect(resolveApiKey({ id: 'o', api: 'openai-completions' }, { OPENAI_API_KEY: 'sk-default' })).toEqual({ key: 'sk-default' });
    expect(resolveApiKey({ id: 'ollama', api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1' }, { OPENAI_API_KEY: 'sk-default' })).toEqual({ key: 'not-needed' });
  });

  it('builds working providers from configurations with $ENV keys and headers', async () => {
    server.reply({ stream: [chatTextSse(['compat'])] });
    const local = createProvider({ id: 'local', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: '$LOCAL_KEY', headers: { 'x-org': 'me' } }, { LOCAL_KEY: 'sk-local' });
    const r = await local.stream(llmRequest({ id: 'llama3' }), testSink());
    expect(r.content).toEqual([{ type: 'text', text: 'compat' }]);
    expect(server.requests.at(-1)!.headers).toMatchObject({ authorization: 'Bearer sk-local', 'x-org': 'me' });

    server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['claude']) + anthEnd('end_turn', 1)] });
    const anth = createProvider({ id: 'proxy', api: 'anthropic-messages', baseUrl: server.url, apiKey: 'k' }, {});
    expect((await anth.stream(llmRequest({ id: 'claude-test-1' }), testSink())).content).toEqual([{ type: 'text', text: 'claude' }]);
  });

  it('an unknown api or a replay without a home folder is a clear error', async () => {
    const bad = createProvider({ id: 'x', api: 'gemini' as never }, {});
    expect((await bad.stream(llmRequest({ id: 'm' }), testSink())).error?.message).toContain('unknown api "gemini"');
    const replay = createProvider({ id: 'replay', api: 'replay' }, {});
    expect((await replay.stream(llmRequest({ id: 'm' }), testSink())).error?.message).toContain('STEPWISE_HOME');
  });
});
