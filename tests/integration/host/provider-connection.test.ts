/**
 * Settings → Providers (issue 17 item 13): several named connection profiles of one preset, the
 * connection test and the model list (`GET /models` through the official SDK clients against a
 * local HTTP server), through the host's request API. The key reaches the server and never the
 * client: not in a result, not in an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../../../shared/protocol/host-api';
import { startSseServer, type SseServer } from '../../support/sse-server';
import { hostCores, makeHome, RecordingClient, rejection } from '../../support/host-harness';

const KEY_WORK = 'sk-work-7f3e9a1b2c4d5e6f';
const KEY_HOME = 'sk-home-0a1b2c3d4e5f6a7b';
const MODELS = { object: 'list', data: [{ id: 'gpt-b', object: 'model', created: 1, owned_by: 'me' }, { id: 'gpt-a', object: 'model', created: 1, owned_by: 'me' }] };

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());
const startCore = hostCores();

async function connect() {
  const core = await startCore({ home: makeHome() });
  const c = new RecordingClient();
  return core.connect(c.send);
}

describe('provider profiles, connection test and model list', () => {
  it('two named profiles of one preset, each with its own key; Test and the model list use the right one', async () => {
    const conn = await connect();
    await conn.request('settings.saveProvider', { id: 'openai-work', name: 'OpenAI work', preset: 'openai', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: KEY_WORK });
    const list = (await conn.request('settings.saveProvider', { id: 'openai-home', name: 'OpenAI personal', preset: 'openai', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: KEY_HOME })) as ProviderInfo[];
    expect(list.filter((p) => p.preset === 'openai').map((p) => [p.id, p.name])).toEqual([['openai-work', 'OpenAI work'], ['openai-home', 'OpenAI personal']]);
    expect(JSON.stringify(list)).not.toContain(KEY_WORK);

    server.reply({ json: MODELS });
    const test = (await conn.request('settings.testProvider', { id: 'openai-home' })) as { ok: boolean; message: string; models?: number };
    expect(test).toEqual({ ok: true, models: 2, message: `Connected to "openai-home" at ${server.url}/v1: 2 models.` });
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY_HOME}`);

    server.reply({ json: MODELS });
    expect(await conn.request('settings.providerModels', { id: 'openai-work' })).toEqual(['gpt-a', 'gpt-b']);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY_WORK}`);
  });

  it('a refused key: the test says the status and what to check, with the key masked even when the server repeats it', async () => {
    const conn = await connect();
    await conn.request('settings.saveProvider', { id: 'groq', preset: 'groq', api: 'openai-completions', baseUrl: `${server.url}/openai/v1`, apiKey: KEY_WORK });
    server.reply({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY_WORK}`, type: 'invalid_request_error', code: 'invalid_api_key' } } });
    const test = (await conn.request('settings.testProvider', { id: 'groq' })) as { ok: boolean; message: string };
    expect(test.ok).toBe(false);
    expect(test.message).toMatch(/^Could not connect to "groq" at http:\/\/127\.0\.0\.1:\d+\/openai\/v1: HTTP 401: .*Incorrect API key provided: …\. Check the API key\.$/);
    expect(test.message).not.toContain(KEY_WORK);
    server.reply({ status: 401, json: { error: { message: `bad key ${KEY_WORK}` } } });
    const err = await rejection(conn.request('settings.providerModels', { id: 'groq' }));
    expect(err.code).toBe('provider_error');
    expect(err.message).toContain('HTTP 401');
    expect(err.message).not.toContain(KEY_WORK);
  });

  it('a server that is not running, a key variable that is not set, an unknown provider: each named', async () => {
    const conn = await connect();
    await conn.request('settings.saveProvider', { id: 'ollama', preset: 'ollama', api: 'openai-completions', baseUrl: 'http://127.0.0.1:9/v1' });
    const down = (await conn.request('settings.testProvider', { id: 'ollama' })) as { ok: boolean; message: string };
    expect(down).toMatchObject({ ok: false, message: expect.stringMatching(/^Could not connect to "ollama" at http:\/\/127\.0\.0\.1:9\/v1: .*Is the server running, and the base URL right\?$/) });
    await conn.request('settings.saveProvider', { id: 'mistral', preset: 'mistral', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: '$STEPWISE_TEST_UNSET_KEY' });
    expect(await conn.request('settings.testProvider', { id: 'mistral' })).toEqual({ ok: false, message: 'No API key for provider mistral: set STEPWISE_TEST_UNSET_KEY or add a key in Settings' });
    expect(await rejection(conn.request('settings.testProvider', { id: 'nope' }))).toMatchObject({ code: 'not_found' });
    // A server that answers /models with something else than a model list.
    await conn.request('settings.saveProvider', { id: 'odd', api: 'openai-completions', baseUrl: `${server.url}/v1` });
    server.reply({ json: { models: ['a'] } });
    expect(await conn.request('settings.testProvider', { id: 'odd' })).toMatchObject({ ok: false, message: expect.stringContaining('the answer to GET /models is not a model list') });
    expect(await conn.request('settings.testProvider', { id: 'scripted' })).toMatchObject({ ok: true });
  });

  it('Anthropic lists its models on its own endpoint, with its key', async () => {
    const conn = await connect();
    await conn.request('settings.saveProvider', { id: 'anthropic', baseUrl: server.url, apiKey: KEY_WORK });
    server.reply({ json: { data: [{ type: 'model', id: 'claude-x', display_name: 'Claude X', created_at: '2026-01-01T00:00:00Z' }], has_more: false, first_id: 'claude-x', last_id: 'claude-x' } });
    expect(await conn.request('settings.providerModels', { id: 'anthropic' })).toEqual(['claude-x']);
    const req = server.requests.at(-1)!;
    expect(req.path).toMatch(/^\/v1\/models\?limit=1000$/);
    expect(req.headers.authorization).toBe(`Bearer ${KEY_WORK}`); // this SDK version sends the key as a bearer token
  });
});
