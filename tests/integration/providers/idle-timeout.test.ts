// The idle timeout of a model call: the real `openai` and `@anthropic-ai/sdk` clients against a
// local server that stalls with the socket open end the call as an error ("the provider sent
// nothing for N s", partial reply kept, not cancelled, not a lost connection); keep-alives the
// SDKs swallow (SSE comments, Anthropic ping) and slow but steady streams count as activity.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { createOpenAIResponsesProvider } from '../../../agent-runner/providers/openai-responses';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import { createProvider } from '../../../agent-runner/providers/registry';
import { describeError } from '../../../agent-runner/providers/errors';
import type { LlmCallResult, Provider } from '../../../agent-runner/providers/types';
import { idleTimeoutProblem, MAX_IDLE_TIMEOUT_MS, MIN_IDLE_TIMEOUT_MS } from '../../../shared/protocol/runner';
import { startSseServer, sseEvent, type SseServer, type Step } from '../../support/sse-server';
import { anth, anthEnd, anthMessageStart, chatChunk, chatUsageChunk, llmRequest, resp, respResponse, testSink } from './fixtures';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const IDLE = 300;
/** Silence far past the idle timeout, then the socket is cut (the old code ended there, "connection lost"). */
const STALL: Step[] = [{ pause: 5000 }, { destroy: true }];
const PIECES = ['One ', 'two ', 'three ', 'four ', 'five'];

const chat = (idleTimeoutMs = IDLE, timeoutMs?: number) => createOpenAIChatProvider({ id: 'local', apiKey: 'sk-test', baseUrl: `${server.url}/v1`, idleTimeoutMs, timeoutMs });
const responses = () => createOpenAIResponsesProvider({ id: 'openai', apiKey: 'sk-test', baseUrl: `${server.url}/v1`, idleTimeoutMs: IDLE });
const anthropic = (idleTimeoutMs = IDLE, timeoutMs?: number) => createAnthropicProvider({ id: 'anthropic', apiKey: 'sk-ant', baseUrl: server.url, idleTimeoutMs, timeoutMs });
const chatModel = { id: 'gpt-4.1' };
const claude = { id: 'claude-test-1', provider: 'anthropic' };

async function call(p: Provider, model: { id: string; provider?: string }, signal?: AbortSignal) {
  const sink = testSink();
  const r = await p.stream(llmRequest(model, signal ? { signal } : {}), sink);
  return { r, sink };
}

/** The call ended on the idle timeout with the five deltas kept. */
function expectStalled(r: LlmCallResult, provider: string, streamed: string) {
  expect(r.stopReason).toBe('error');
  expect(r.cancelled).toBeUndefined();
  expect(r.error?.code).toBe('idle_timeout');
  expect(r.error?.message).toContain('the provider sent nothing for 0.3 s');
  expect(r.error?.message).toContain(`idleTimeoutMs of provider "${provider}"`);
  expect(r.error?.message).not.toMatch(/connection lost|cancel/i);
  expect(r.content).toEqual([{ type: 'text', text: PIECES.join('') }]);
  expect(streamed).toBe(PIECES.join(''));
}

describe('a provider that stalls mid-stream', () => {
  it('openai chat: five deltas, then silence with the socket open → idle error, partial text kept, request closed', async () => {
    server.reply({ stream: [sseEvent(chatChunk({ role: 'assistant', content: '' })), ...PIECES.map((p) => sseEvent(chatChunk({ content: p }))), ...STALL] });
    const closed = server.clientClosed();
    const { r, sink } = await call(chat(), chatModel);
    expectStalled(r, 'local', sink.allText());
    await closed;
  });

  it('openai responses: the same', async () => {
    server.reply({
      stream: [
        resp({ type: 'response.created', response: respResponse('in_progress') }),
        ...PIECES.map((p) => resp({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: p })),
        ...STALL,
      ],
    });
    const { r, sink } = await call(responses(), chatModel);
    expectStalled(r, 'openai', sink.allText());
  });

  it('anthropic: the same', async () => {
    server.reply({
      stream: [
        anthMessageStart(),
        anth({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        ...PIECES.map((t) => anth({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } })),
        ...STALL,
      ],
    });
    const closed = server.clientClosed();
    const { r, sink } = await call(anthropic(), claude);
    expectStalled(r, 'anthropic', sink.allText());
    await closed;
  });

  it('a server that accepts the request and never answers (no headers): idle error, nothing streamed', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const mute = http.createServer(() => {});
    mute.on('connection', (s) => sockets.add(s));
    await new Promise<void>((ok) => mute.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(mute.address() as AddressInfo).port}`;
      const p = createOpenAIChatProvider({ id: 'local', apiKey: 'sk-test', baseUrl: `${url}/v1`, idleTimeoutMs: IDLE });
      const { r } = await call(p, chatModel);
      expect(r.error?.code).toBe('idle_timeout');
      expect(r.error?.message).toContain('the provider sent nothing for 0.3 s');
      expect(r.content).toEqual([]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((ok) => mute.close(ok));
    }
  });

  it("Node's own fetch timeout (300 s without a byte) reads as the same silence, not a lost connection", () => {
    // The shape Node's fetch (undici) gives a body read after `bodyTimeout`: TypeError('terminated') caused by BodyTimeoutError.
    const cause = Object.assign(new Error('Body Timeout Error'), { name: 'BodyTimeoutError', code: 'UND_ERR_BODY_TIMEOUT' });
    const e = describeError(new TypeError('terminated', { cause }), { provider: 'local', model: 'm', baseUrl: 'http://127.0.0.1:1/v1' }, true);
    expect(e.code).toBe('idle_timeout');
    expect(e.message).toContain('the provider sent nothing for 300 s');
    expect(e.message).not.toContain('connection lost');
  });
});

describe('activity the SDKs do not show', () => {
  // Each gap is shorter than the idle timeout; together they last far longer than it (and than
  // the SDK's own `timeout`, which covers only the wait for the response headers).
  const gaps = (beat: string, n = 8): Step[] => Array.from({ length: n }, () => [{ pause: 120 }, beat] as Step[]).flat();

  it('openai chat: SSE comments (": keep-alive") past the idle timeout, then the rest → completes', async () => {
    server.reply({
      stream: [
        sseEvent(chatChunk({ role: 'assistant', content: 'Think' })),
        ...gaps(': keep-alive\n\n'),
        sseEvent(chatChunk({ content: 'ing done' })),
        sseEvent(chatChunk({}, 'stop')),
        sseEvent(chatUsageChunk(5, 2)),
        'data: [DONE]\n\n',
      ],
    });
    const { r } = await call(chat(IDLE, 200), chatModel);
    expect(r.error).toBeUndefined();
    expect(r.stopReason).toBe('stop');
    expect(r.content).toEqual([{ type: 'text', text: 'Thinking done' }]);
  });

  it('anthropic: ping events past the idle timeout, then the rest → completes', async () => {
    server.reply({
      stream: [
        anthMessageStart(),
        anth({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        anth({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Slow ' } }),
        ...gaps(anth({ type: 'ping' })),
        anth({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'but alive' } }),
        anth({ type: 'content_block_stop', index: 0 }),
        anthEnd('end_turn', 4),
      ],
    });
    const { r } = await call(anthropic(IDLE, 200), claude);
    expect(r.error).toBeUndefined();
    expect(r.stopReason).toBe('stop');
    expect(r.content).toEqual([{ type: 'text', text: 'Slow but alive' }]);
  });

  it('deltas each shorter than the idle timeout apart, the whole stream much longer → completes', async () => {
    server.reply({ stream: [...PIECES.flatMap((p) => [{ pause: 150 }, sseEvent(chatChunk({ content: p }))]), sseEvent(chatChunk({}, 'stop')), 'data: [DONE]\n\n'] });
    const { r } = await call(chat(IDLE, 200), chatModel);
    expect(r.error).toBeUndefined();
    expect(r.content).toEqual([{ type: 'text', text: PIECES.join('') }]);
  });

  it('a reply that ended (message_stop) while the server keeps the response open completes without an error', async () => {
    server.reply({ stream: [anthMessageStart(), anth({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'All said.' } }), anth({ type: 'content_block_stop', index: 0 }), anthEnd('end_turn', 3), { hang: true }] });
    const { r } = await call(anthropic(), claude);
    expect(r.error).toBeUndefined();
    expect(r.stopReason).toBe('stop');
    expect(r.content).toEqual([{ type: 'text', text: 'All said.' }]);
  });
});

describe('idleTimeoutMs of a provider', () => {
  it('reaches the call through the registry: a configured 300 ms ends a stalled call', async () => {
    server.reply({ stream: [...PIECES.map((p) => sseEvent(chatChunk({ content: p }))), ...STALL] });
    const p = createProvider({ id: 'slowpoke', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: 'sk-x', idleTimeoutMs: IDLE }, {});
    const sink = testSink();
    expectStalled(await p.stream(llmRequest(chatModel), sink), 'slowpoke', sink.allText());
  });

  it('a bad value ends every call with an error naming the provider and the field, nothing sent', async () => {
    const before = server.requests.length;
    for (const bad of [0, -5, 1.5, 99, MAX_IDLE_TIMEOUT_MS + 1, '300', null, Number.NaN]) {
      const p = createProvider({ id: 'slowpoke', api: 'anthropic-messages', baseUrl: server.url, apiKey: 'sk-x', idleTimeoutMs: bad as number }, {});
      const r = await p.stream(llmRequest(claude), testSink());
      expect(r.error?.code).toBe('bad_config');
      expect(r.error?.message).toMatch(/^Provider slowpoke: idleTimeoutMs must be a whole number of milliseconds from 100 to 300000 \(default 120000\), not .+\. Fix it in settings\/providers\.json\.$/);
    }
    expect(server.requests.length).toBe(before);
  });

  it('the check accepts exactly the whole numbers in range and absence, and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.integer(), fc.double()), (v) => {
        const ok = v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= MIN_IDLE_TIMEOUT_MS && v <= MAX_IDLE_TIMEOUT_MS);
        const problem = idleTimeoutProblem(v);
        expect(problem === undefined).toBe(ok);
        if (problem) expect(problem.length).toBeLessThan(200);
      }),
    );
  });
});
