// Request bodies from the vendors' docs, imported, then sent through the real SDK clients to a
// local SSE server: what the user brought is what the provider receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createOpenAIChatProvider } from '../../../agent-runner/providers/openai-chat';
import { createAnthropicProvider } from '../../../agent-runner/providers/anthropic';
import { toolSpecs } from '../../../agent-runner/loop/messages';
import { importThread } from '../../../shared/thread/import';
import type { Thread } from '../../../shared/thread/schema';
import { startSseServer, type SseServer } from '../../support/sse-server';
import { anthEnd, anthMessageStart, anthTextBlock, chatTextSse, testSink } from './fixtures';

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
      toolChoice: { type: 'function', name: 'tag_image' },
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

describe('an Anthropic Messages request body with documents', () => {
  const body = fixture('anthropic-documents.json');
  const notes: { pointer: string; message: string }[] = [];
  const t = importThread(body, { notes });

  it('imports PDF (base64), URL and text documents with title, context, citations and cache_control', () => {
    const content = t.context.messages[0].content;
    expect(content.map((p) => p.type)).toEqual(['document', 'document', 'document', 'text']);
    expect(content[0]).toEqual({ type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: body.messages[0].content[0].source.data }, title: 'Q3 report', cacheControl: { type: 'ephemeral', ttl: '1h' } });
    expect(content[1]).toEqual({ type: 'document', source: { type: 'url', url: body.messages[0].content[1].source.url } });
    expect(content[2]).toEqual({ type: 'document', source: { type: 'text', mediaType: 'text/plain', data: 'The grass is green. The sky is blue.' }, title: 'My Document', context: 'This is a trustworthy document.', citations: { enabled: true } });
    expect(notes).toEqual([{ pointer: '/system/0/cache_control', message: 'cache_control on the system prompt is not kept (the system prompt is one text)' }]);
  });

  it('is sent back to Anthropic block for block', async () => {
    server.reply({ stream: [anthMessageStart() + anthTextBlock(0, ['Green and blue.']) + anthEnd('end_turn', 4)] });
    const r = await createAnthropicProvider({ id: 'anthropic', apiKey: 'sk-ant-test', baseUrl: server.url }).stream(request(t), testSink());
    expect(r.error).toBeUndefined();
    const sent = server.requests.at(-1)!.body as Record<string, any>;
    expect(sent.messages).toEqual(body.messages);
  });
});
