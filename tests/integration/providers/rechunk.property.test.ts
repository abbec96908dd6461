// Property: however one SSE byte stream is cut into network chunks (inside multi-byte
// characters, between \r and \n, inside `data:`), the assembled result and the sink calls are
// the same. Real SDK clients read the bytes from the local server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import type { Provider } from '../../../agent-runner/providers/types';
import { startSseServer, splitAt, type SseServer } from '../../support/sse-server';
import { anthEnd, anthMessageStart, anthTextBlock, anthThinkingBlock, anthToolUseBlock, chatChunk, chatSse, chatUsageChunk, llmRequest, testSink } from './fixtures';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const chatBody = chatSse([
  chatChunk({ role: 'assistant', content: '', reasoning_content: '思考中…' }),
  chatChunk({ content: 'Résumé: 😀 ' }),
  chatChunk({ content: '日本語のテキスト' }),
  chatChunk({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'a', arguments: '{"s":"' } }] }),
  chatChunk({ tool_calls: [{ index: 1, id: 'c1', type: 'function', function: { name: 'b', arguments: '' } }] }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: '✓👍🏽"}' } }] }),
  chatChunk({}, 'tool_calls'),
  chatUsageChunk(100, 42, 10, 5),
]);

// CRLF line endings, which SSE allows: a cut between \r and \n must not split an event.
const anthBody = (
  anthMessageStart(55) +
  anthThinkingBlock(0, ['Σκέψη 🤔'], 'c2lnbmF0dXJl') +
  anthTextBlock(1, ['汉字', ' & emoji 🇯🇵']) +
  anthToolUseBlock(2, 'tu', 'look', ['{"q": "кот', '"}']) +
  anthEnd('tool_use', 30)
).replace(/\n/g, '\r\n');

async function run(p: Provider, stream: Uint8Array[]) {
  server.reply({ stream });
  const sink = testSink();
  const result = await p.stream(llmRequest({ id: 'm' }), sink);
  return { result, calls: sink.calls.filter((c) => c[0] !== 'request') };
}

describe.each([
  ['openai chat', () => createOpenAIChatProvider({ id: 'openai', apiKey: 'k', baseUrl: `${server.url}/v1` }), chatBody],
  ['anthropic', () => createAnthropicProvider({ id: 'anthropic', apiKey: 'k', baseUrl: server.url }), anthBody],
])('%s re-chunking', (_name, make, body) => {
  it('gives the same result and sink calls for any chunk boundaries', async () => {
    const bytes = new TextEncoder().encode(body);
    const provider = make();
    const reference = await run(provider, [bytes]);
    expect(reference.result.error).toBeUndefined();
    expect(reference.result.toolCalls.length).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), async (cuts) => {
        const got = await run(provider, splitAt(bytes, cuts));
        expect(got.result).toEqual(reference.result);
        expect(got.calls).toEqual(reference.calls);
      }),
      { numRuns: 25 },
    );
  });
});
