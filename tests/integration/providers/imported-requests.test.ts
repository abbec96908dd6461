// Request bodies from the vendors' docs, imported, then sent through the real SDK clients to a
// local SSE server: what the user brought is what the provider receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { toolSpecs } from '../../../agent-runner/loop/messages';
import { importThread } from '../../../shared/thread/import';
import type { Thread } from '../../../shared/thread/schema';
import { startSseServer, type SseServer } from '../../support/sse-server';
import { chatTextSse, testSink } from './fixtures';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const fixture = (name: string): Record<string, any> => JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/threads', name), 'utf8'));
const request = (t: Thread) => ({ model: t.model, systemPrompt: t.context.systemPrompt, messages: t.context.messages, tools: toolSpecs(t.context.tools), signal: new AbortController().signal });

describe('an OpenAI Chat Completions request body', () => {
  const body = fixture('openai-chat-url-image.json');
  const t = importThread(body);

  it('keeps an https image as a URL image with its detail, strict tools, tool choice, parallel calls and response format', () => {
    expect(t.context.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text' }, { type: 'image', url: body.messages[1].content[1].image_url.url, detail: 'high' }] });
    expect(t.context.tools[0]).toMatchObject({ type: 'function', name: 'tag_image', strict: true });
    expect(t.model.params).toEqual({
      toolChoice: { type: 'function', function: { name: 'tag_image' } },
      parallelToolCalls: false,
      responseFormat: body.response_format,
      extra: { seed: 7 },
    });
  });

  it('is sent back to OpenAI as it came: the image URL and detail, strict, tool_choice, parallel_tool_calls, response_format', async () => {
    server.reply({ stream: [chatTextSse(['{"caption":"a boardwalk"}'])] });
    const r = await createOpenAIChatProvider({ id: 'openai', apiKey: 'sk-test', baseUrl: `${server.url}/v1` }).stream(request(t), testSink());
    expect(r.error).toBeUndefined();
    const sent = server.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent.messages).toEqual([body.messages[0], body.messages[1]]);
    expect(sent.tools).toEqual(body.tools);
    expect(sent).toMatchObject({ tool_choice: body.tool_choice, parallel_tool_calls: false, response_format: body.response_format, seed: 7 });
  });
});
