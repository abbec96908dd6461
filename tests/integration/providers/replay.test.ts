// Replay: a live call's recorded request and raw events, played back from a run file, give the
// same sink calls and the same result as the live call did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import { createOpenAIResponsesProvider } from '../../../agent-runner/providers/openai-responses';
import { createReplayProvider } from '../../../agent-runner/providers/replay';
import type { LlmCallResult, Provider } from '../../../agent-runner/providers/types';
import type { RunRecord } from '../../../shared/protocol/host-api';
import { startSseServer, chunkBytes, type ScriptedReply, type SseServer } from '../../support/sse-server';
import { anthEnd, anthMessageStart, anthTextBlock, anthThinkingBlock, anthToolUseBlock, chatChunk, chatSse, chatUsageChunk, llmRequest, resp, respResponse, testSink, type TestSink } from './fixtures';

let server: SseServer;
let home: string;
beforeAll(async () => {
  server = await startSseServer();
  home = await mkdtemp(path.join(tmpdir(), 'stepwise-replay-'));
});
afterAll(async () => {
  await server.close();
  await rm(home, { recursive: true, force: true });
});

/** Records like the runner's LLM node: request and `{ t, data }` events. */
function recordingSink(): TestSink & { recorded: { t: number; data: unknown }[] } {
  const started = performance.now();
  const recorded: { t: number; data: unknown }[] = [];
  const inner = testSink();
  const event = inner.event;
  return Object.assign(inner, {
    recorded,
    event: (data: unknown) => {
      event(data);
      recorded.push({ t: Math.round(performance.now() - started), data });
    },
  });
}

let runCount = 0;
/** Runs a live call, stores it as a run file, replays it; returns both sides. */
async function liveThenReplay(provider: Provider, providerId: string, reply: ScriptedReply, cancelAfterText = false) {
  server.reply(reply);
  const live = recordingSink();
  const ac = new AbortController();
  if (cancelAfterText) {
    const orig = live.text;
    live.text = (d, i) => (orig(d, i), ac.abort());
  }
  const req = llmRequest({ id: 'model-x' }, { signal: ac.signal });
  const result = await provider.stream(req, live);
  const runId = `run${++runCount}`;
  const status = result.cancelled ? 'cancelled' : result.error ? 'error' : 'completed';
  const run: RunRecord = {
    runId,
    threadId: 't1',
    mode: 'step',
    status,
    startedAt: 1,
    nodes: [{ id: 'n1', runId, kind: 'llm', name: 'llm', status, startedAt: 1, ...(result.error ? { error: result.error } : {}) }],
    records: [{ runId, nodeId: 'n1', api: providerId, request: live.requests[0], events: live.recorded }],
  };
  await mkdir(path.join(home, 'runs', 't1'), { recursive: true });
  await writeFile(path.join(home, 'runs', 't1', `${runId}.json`), JSON.stringify(run));
  const replaySink = testSink();
  const replayed = await createReplayProvider(home).stream(
    llmRequest({ id: 'replay', provider: 'replay', params: { extra: { replaySpeed: 0 } }, replay: { runId, nodeId: 'n1' } }),
    replaySink,
  );
  return { live, result, replaySink, replayed };
}

function expectSame(a: { live: TestSink; result: LlmCallResult; replaySink: TestSink; replayed: LlmCallResult }) {
  expect(a.replayed).toEqual(a.result);
  expect(a.replaySink.calls).toEqual(a.live.calls);
}

describe('replay', () => {
  it('OpenAI chat: text, reasoning, tool calls and usage replay identically', async () => {
    const body = chatSse([
      chatChunk({ reasoning_content: 'hmm' }),
      chatChunk({ content: 'Hi 👋' }),
      chatChunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"x"' } }] }),
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
      chatChunk({}, 'tool_calls'),
      chatUsageChunk(9, 9),
    ]);
    const r = await liveThenReplay(createOpenAIChatProvider({ id: 'openai', apiKey: 'k', baseUrl: `${server.url}/v1` }), 'openai', { stream: chunkBytes(body, 50) });
    expect(r.result.toolCalls).toHaveLength(1);
    expectSame(r);
  });

  it('Anthropic: thinking with signature and tool use replay identically', async () => {
    const body =
      anthMessageStart(10) +
      anthThinkingBlock(0, ['plan'], 'sig') +
      anthTextBlock(1, ['ok']) +
      anthToolUseBlock(2, 't1', 'g', ['{"q":"中"}']) +
      anthEnd('tool_use', 20);
    const r = await liveThenReplay(createAnthropicProvider({ id: 'anthropic', apiKey: 'k', baseUrl: server.url }), 'anthropic-messages', { stream: [body] });
    expect(r.result.content[0]).toMatchObject({ signature: 'sig' });
    expectSame(r);
  });

  it('Responses: replays identically', async () => {
    const body =
      resp({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: 'Yo' }) +
      resp({ type: 'response.completed', response: respResponse('completed', { usage: { input_tokens: 1, output_tokens: 2 } }) });
    const r = await liveThenReplay(createOpenAIResponsesProvider({ id: 'my-openai', apiKey: 'k', baseUrl: `${server.url}/v1` }), 'my-openai', { stream: [body] });
    expect(r.result.content).toEqual([{ type: 'text', text: 'Yo' }]);
    expectSame(r);
  });

  it('errors and cancellation replay identically (from the recorded node status)', async () => {
    const openai = createOpenAIChatProvider({ id: 'openai', apiKey: 'k', baseUrl: `${server.url}/v1` });
    const rate = await liveThenReplay(openai, 'openai', { status: 429, headers: { 'retry-after': '3' }, json: { error: { message: 'slow down' } } });
    expect(rate.result.error?.code).toBe('rate_limit');
    expectSame(rate);
    const cut = await liveThenReplay(openai, 'openai', { stream: [chatSse([chatChunk({ content: 'par' })], false)] });
    expect(cut.result.error?.code).toBe('stream_cut');
    expectSame(cut);
    const cancelled = await liveThenReplay(openai, 'openai', { stream: [chatSse([chatChunk({ content: 'stop me' })], false), { hang: true }] }, true);
    expect(cancelled.result.cancelled).toBe(true);
    expectSame(cancelled);
  });

  it('without nodeId plays the run\u2019s records in order; keeps recorded pace when asked', async () => {
    const runId = 'multi';
    const chunk = (text: string) => ({ t: 0, data: chatChunk({ content: text }) });
    const run = {
      runId,
      threadId: 't2',
      mode: 'react',
      status: 'completed',
      startedAt: 1,
      nodes: [],
      records: [
        { runId, nodeId: 'a', api: 'openai', request: { model: 'm' }, events: [chunk('first'), { t: 120, data: chatChunk({}, 'stop') }] },
        { runId, nodeId: 'b', api: 'openai', request: { model: 'm' }, events: [chunk('second'), { t: 1, data: chatChunk({}, 'stop') }] },
      ],
    };
    await mkdir(path.join(home, 'runs', 't2'), { recursive: true });
    await writeFile(path.join(home, 'runs', 't2', `${runId}.json`), JSON.stringify(run));
    const p = createReplayProvider(home);
    const model = { id: 'replay', provider: 'replay', params: { extra: { replaySpeed: 2 } }, replay: { runId } };
    const t0 = performance.now();
    const one = await p.stream(llmRequest(model), testSink());
    expect(performance.now() - t0).toBeGreaterThanOrEqual(50); // 120 ms recorded at 2x speed
    const two = await p.stream(llmRequest(model), testSink());
    const three = await p.stream(llmRequest(model), testSink());
    expect(one.content).toEqual([{ type: 'text', text: 'first' }]);
    expect(two.content).toEqual([{ type: 'text', text: 'second' }]);
    expect(three.error?.message).toContain('has 2 recorded LLM call(s)');
  });

  it('a missing run, node or replay reference is a clear error, not a throw', async () => {
    const p = createReplayProvider(home);
    const missing = await p.stream(llmRequest({ id: 'r', provider: 'replay', replay: { runId: 'nope' } }), testSink());
    expect(missing.error?.message).toContain('run nope was not found');
    const noNode = await p.stream(llmRequest({ id: 'r', provider: 'replay', replay: { runId: 'multi', nodeId: 'zz' } }), testSink());
    expect(noNode.error?.message).toContain('no recorded LLM call for node zz');
    const noRef = await p.stream(llmRequest({ id: 'r', provider: 'replay' }), testSink());
    expect(noRef.error?.message).toContain('model.replay.runId');
    const traversal = await p.stream(llmRequest({ id: 'r', provider: 'replay', replay: { runId: '../x' } }), testSink());
    expect(traversal.error?.message).toContain('not a run id');
  });
});
