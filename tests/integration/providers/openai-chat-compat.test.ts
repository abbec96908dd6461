// Chat Completions streams from OpenAI-compatible servers that bend the format, through the
// real `openai` client against a local SSE server: Mistral/Magistral content arrays, Cerebras
// tool calls that share an index, and refusals (content_filter, `delta.refusal`).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { contentParts, createOpenAIChatProvider, OpenAIChatHandler } from '../../../agent-runner/providers/openai-chat';
import { chunkBytes, sseServerPerFile } from '../../support/sse-server';
import { chatChunk, chatSse, chatUsageChunk, llmRequest, testSink } from './fixtures';
import { toAssistantMessage } from '../../../agent-runner/providers/types';

const server = sseServerPerFile();

const provider = () => createOpenAIChatProvider({ id: 'mistral', apiKey: 'sk-test', baseUrl: `${server().url}/v1` });
const model = { id: 'magistral-medium-latest' };

/** A Mistral chunk: Mistral sends its usage in the chunk that carries finish_reason. */
const mistral = (delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, number>) => ({
  id: '5d8f0c3a7b9e4f0d',
  object: 'chat.completion.chunk',
  created: 1750000000,
  model: 'magistral-medium-2506',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...(usage ? { usage } : {}),
});

describe('Mistral / Magistral content arrays', () => {
  it('keeps text, thinking and usage from delta.content arrays', async () => {
    server().reply({
      stream: chunkBytes(
        chatSse([
          mistral({ role: 'assistant', content: '' }),
          mistral({ role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Add them.' }] }, { type: 'text', text: '2 + 2 = 4' }] }),
          mistral({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: ' Easy.' }] }] }),
          mistral({ content: [{ type: 'text', text: ', done.' }] }),
          mistral({ content: '' }, 'stop', { prompt_tokens: 10, completion_tokens: 25, total_tokens: 35 }),
        ]),
        40,
      ),
    });
    const sink = testSink();
    const r = await provider().stream(llmRequest(model), sink);
    expect(r.error).toBeUndefined();
    expect(r.stopReason).toBe('stop');
    expect(r.content).toEqual([
      { type: 'thinking', thinking: 'Add them. Easy.' },
      { type: 'text', text: '2 + 2 = 4, done.' },
    ]);
    expect(r.usage).toEqual({ inputTokens: 10, outputTokens: 25 });
    expect(sink.allThinking()).toBe('Add them. Easy.');
    expect(sink.allText()).toBe('2 + 2 = 4, done.');
  });

  it('contentParts: every text of every text and thinking part, in order, whatever else is in the array', () => {
    const text = fc.string();
    const part = fc.oneof(
      text.map((t) => ({ part: { type: 'text', text: t } as unknown, want: [{ kind: 'text', text: t }] })),
      fc.array(text, { maxLength: 3 }).map((ts) => ({ part: { type: 'thinking', thinking: ts.map((t) => ({ type: 'text', text: t })) } as unknown, want: ts.map((t) => ({ kind: 'thinking', text: t })) })),
      text.map((t) => ({ part: { type: 'thinking', thinking: t } as unknown, want: [{ kind: 'thinking', text: t }] })),
      fc.oneof(fc.constant(null), fc.integer(), fc.constant({ type: 'image_url', image_url: 'x' }), fc.constant({ type: 'thinking', thinking: 5 }), fc.constant({ type: 'text' })).map((p) => ({ part: p as unknown, want: [] })),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        expect(contentParts(parts.map((p) => p.part))).toEqual(parts.flatMap((p) => p.want));
      }),
    );
  });
});

describe('tool calls that share an index (Cerebras)', () => {
  it('a new id at an index starts a new call', async () => {
    const call = (id: string, name: string) => ({ index: 0, id, type: 'function', function: { name, arguments: '' } });
    const args = (a: string) => ({ index: 0, function: { arguments: a } });
    server().reply({
      stream: [
        chatSse([
          chatChunk({ role: 'assistant', content: null }),
          chatChunk({ tool_calls: [call('call_a1', 'get_weather')] }),
          chatChunk({ tool_calls: [args('{"city":')] }),
          chatChunk({ tool_calls: [args('"Paris"}')] }),
          chatChunk({ tool_calls: [call('call_b2', 'get_time')] }),
          chatChunk({ tool_calls: [args('{}')] }),
          chatChunk({ tool_calls: [{ index: 0, id: 'call_b2', function: { arguments: '' } }] }),
          chatChunk({}, 'tool_calls'),
          chatUsageChunk(20, 30),
        ]),
      ],
    });
    const sink = testSink();
    const r = await provider().stream(llmRequest(model), sink);
    expect(r.error).toBeUndefined();
    expect(r.toolCalls).toEqual([
      { id: 'call_a1', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_b2', name: 'get_time', arguments: {} },
    ]);
    expect(sink.args()).toEqual({ 0: '{"city":"Paris"}', 1: '{}' });
  });
});

describe('tool calls that share an index: any sequence', () => {
  it('calls streamed one after another at one index, arguments cut anywhere, come out as sent', () => {
    const call = fc.record({ name: fc.constantFrom('a', 'get_time', 'f-1'), args: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), { maxKeys: 3 }) });
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }), (calls, cuts) => {
        const h = new OpenAIChatHandler(testSink(), { provider: 'cerebras', model: 'm', baseUrl: 'http://x' });
        calls.forEach((c, i) => {
          const text = JSON.stringify(c.args);
          h.event(chatChunk({ tool_calls: [{ index: 0, id: `call_${i}`, type: 'function', function: { name: c.name, arguments: '' } }] }));
          for (let at = 0, k = 0; at < text.length; k++) {
            const next = Math.min(text.length, at + cuts[k % cuts.length]);
            h.event(chatChunk({ tool_calls: [{ index: 0, function: { arguments: text.slice(at, next) } }] }));
            at = next;
          }
        });
        h.event(chatChunk({}, 'tool_calls'));
        expect(h.finish().toolCalls).toEqual(calls.map((c, i) => ({ id: `call_${i}`, name: c.name, arguments: c.args })));
      }),
    );
  });
});

describe('chat refusals', () => {
  it('finish_reason content_filter ends the call as an error, partial text kept', async () => {
    server().reply({ stream: [chatSse([chatChunk({ role: 'assistant', content: 'Step one: ' }), chatChunk({}, 'content_filter'), chatUsageChunk(9, 3)])] });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.stopReason).toBe('content_filter');
    expect(r.error).toMatchObject({ code: 'refusal', message: expect.stringContaining('content_filter') });
    expect(r.content).toEqual([{ type: 'text', text: 'Step one: ' }]);
    expect(r.usage).toEqual({ inputTokens: 9, outputTokens: 3 });
    expect(toAssistantMessage('a1', r, 'mistral/x')).toMatchObject({ stopReason: 'content_filter', errorMessage: r.error!.message });
  });

  it('a delta.refusal is a refusal with the model\'s words as the explanation', async () => {
    server().reply({ stream: [chatSse([chatChunk({ role: 'assistant', content: null, refusal: "I'm sorry, " }), chatChunk({ refusal: 'I cannot help with that.' }), chatChunk({}, 'stop')])] });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.stopReason).toBe('content_filter');
    expect(r.error?.message).toContain("I'm sorry, I cannot help with that");
    expect(r.content).toEqual([{ type: 'text', text: "I'm sorry, I cannot help with that." }]);
  });
});
