// Each importer on a fixture written from the public API docs (tests/fixtures/threads/).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { detectFormat, importThread, ImportError, importOpenAIChat, importAnthropicMessages } from './index';
import type { AssistantMessage, UserMessage } from '../messages';
import type { Thread } from '../schema';
import { validateThread } from '../validate';

const FIX = path.resolve(__dirname, '../../../tests/fixtures/threads');
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(FIX, `${name}.json`), 'utf8'));
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const users = (t: Thread) => t.context.messages.filter((m): m is UserMessage => m.role === 'user');
const assistants = (t: Thread) => t.context.messages.filter((m): m is AssistantMessage => m.role === 'assistant');

describe('detectFormat', () => {
  it.each([
    ['stepwise-valid', 'stepwise'],
    ['stepwise-legacy-v0', 'stepwise'],
    ['llmspace', 'llmspace'],
    ['openai-chat', 'openai-chat'],
    ['openai-responses', 'openai-responses'],
    ['anthropic-messages', 'anthropic-messages'],
    ['unknown-format', 'unknown'],
  ])('%s → %s', (name, format) => {
    expect(detectFormat(fixture(name))).toBe(format);
  });

  it('tells plain user/assistant text apart by the model name', () => {
    expect(detectFormat({ model: 'claude-opus-4', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })).toBe('anthropic-messages');
    expect(detectFormat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).toBe('openai-chat');
  });
});

describe('OpenAI Chat Completions', () => {
  const t = importThread(fixture('openai-chat'));

  it('maps model, params, system and developer messages', () => {
    expect(validateThread(t).ok).toBe(true);
    expect(t.model).toEqual({ provider: 'openai', id: 'gpt-4.1-mini', params: { temperature: 0.3, maxTokens: 1024, toolChoice: 'auto', parallelToolCalls: true } });
    expect(t.context.systemPrompt).toBe('You are a travel assistant. Answer with the tools when you can.\n\nAlways give temperatures in Celsius.');
  });

  it('keeps the user image from the data URL', () => {
    expect(users(t)[0].content).toEqual([
      { type: 'text', text: 'What is the weather in Paris and Tokyo? Here is my itinerary.' },
      { type: 'image', mimeType: 'image/png', data: PNG, detail: 'low' },
    ]);
  });

  it('parses tool-call arguments and attaches tool results by tool_call_id', () => {
    const calls = assistants(t)[0].toolCalls!;
    expect(calls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['call_paris', 'get_weather', { city: 'Paris', unit: 'celsius' }],
      ['call_tokyo', 'get_weather', { city: 'Tokyo', unit: 'celsius' }],
    ]);
    expect(calls[0].output).toEqual({ content: [{ type: 'text', text: '{"temperature":18,"conditions":"light rain"}' }], isError: false });
    expect(calls[1].output?.content).toEqual([{ type: 'text', text: '{"temperature":24,"conditions":"sunny"}' }]);
    expect(t.context.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'user']);
    expect(assistants(t)[1].content).toEqual([{ type: 'text', text: 'Paris: 18°C with light rain. Tokyo: 24°C and sunny.' }]);
  });

  it('turns tools[].function into function tools', () => {
    expect(t.context.tools.map((x) => [x.type, x.name, x.description])).toEqual([
      ['function', 'get_weather', 'Get the current weather for a city.'],
      ['function', 'search_flights', 'Search flights between two airports.'],
    ]);
    expect(t.context.tools[0].type === 'function' && t.context.tools[0].parameters.required).toEqual(['city']);
  });

  it('keeps unparseable argument text in rawArguments', () => {
    const th = importOpenAIChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a": 1' } }] }] });
    expect(assistants(th)[0].toolCalls![0]).toMatchObject({ arguments: {}, rawArguments: '{"a": 1' });
  });

  it('refuses a tool result that answers no tool call, naming the pointer', () => {
    const bad = { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'nope', content: 'r' }] };
    expect(() => importOpenAIChat(bad)).toThrow(ImportError);
    expect(() => importOpenAIChat(bad)).toThrow('/messages/1/tool_call_id: tool result for "nope" answers no earlier tool call');
  });
});

describe('OpenAI Responses', () => {
  const t = importThread(fixture('openai-responses'));

  it('maps instructions, model and reasoning effort', () => {
    expect(validateThread(t).ok).toBe(true);
    expect(t.context.systemPrompt).toBe('You are a coding assistant working in a sandbox.');
    expect(t.model).toMatchObject({ provider: 'openai', id: 'o4-mini', params: { maxTokens: 2048, reasoning: { effort: 'medium' }, extra: { store: false } } });
  });

  it('keeps the input image, the reasoning summary, the function call and its output', () => {
    expect(users(t)[0].content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG, detail: 'auto' });
    const a = assistants(t)[0];
    expect(a.content).toEqual([{ type: 'thinking', thinking: 'I should read the file first.', signature: 'gAAAAABo-encrypted-reasoning' }]);
    expect(a.toolCalls).toEqual([{ id: 'call_read_1', name: 'read_file', arguments: { path: 'config.json' }, output: { content: [{ type: 'text', text: '{\n  "port": 8080\n}' }], isError: false } }]);
    expect(assistants(t)[1].content).toEqual([{ type: 'text', text: 'The port is 8080.' }]);
    expect(users(t)[1].content).toEqual([{ type: 'text', text: 'Change it to 9090.' }]);
  });

  it('turns function tools into function tools and built-in tools into builtin tools', () => {
    expect(t.context.tools.map((x) => `${x.type}:${x.name}`)).toEqual(['function:read_file', 'builtin:web_search_preview']);
  });

  it('names an unsupported input item', () => {
    expect(() => importThread({ model: 'o4-mini', input: [{ type: 'item_reference', id: 'x' }] })).toThrow('/input/0/type: input item type "item_reference" is not supported');
  });
});

describe('Anthropic Messages', () => {
  const t = importThread(fixture('anthropic-messages'));

  it('maps system blocks, max_tokens and the thinking budget', () => {
    expect(validateThread(t).ok).toBe(true);
    expect(t.context.systemPrompt).toBe('You are a careful data analyst.\n\nUse the tools to query data.');
    expect(t.model).toEqual({ provider: 'anthropic', id: 'claude-sonnet-4-5', params: { maxTokens: 4096, reasoning: { budgetTokens: 2048 } } });
  });

  it('keeps the base64 image, thinking with its signature, redacted thinking and tool use', () => {
    expect(users(t)[0].content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG });
    const [first, second, last] = assistants(t);
    expect(first.content).toEqual([
      { type: 'thinking', thinking: 'I need to count orders from the last 7 days.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
      { type: 'text', text: 'I will query the orders table.' },
    ]);
    expect(first.toolCalls![0]).toEqual({
      id: 'toolu_01A',
      name: 'run_sql',
      arguments: { query: 'SELECT count(*) FROM orders WHERE created_at > now() - interval 7 day' },
      output: { content: [{ type: 'text', text: 'ERROR: syntax error at or near "7"' }], isError: true },
    });
    expect(second.content).toEqual([{ type: 'thinking', thinking: '', redacted: true, data: 'EmwKAhgBEgy3va3pzix' }]);
    expect(second.toolCalls![0].output).toEqual({ content: [{ type: 'text', text: 'count\n-----\n1342' }], isError: false });
    expect(last.content).toEqual([{ type: 'text', text: 'There were 1,342 orders last week.' }]);
  });

  it('keeps the user text that follows tool results as a user message, in order', () => {
    expect(t.context.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'user', 'assistant']);
    expect(users(t)[1].content).toEqual([{ type: 'text', text: 'Also break it down by day please.' }]);
  });

  it('maps input_schema tools to function tools and server tools to builtin tools', () => {
    expect(t.context.tools[0]).toEqual({ type: 'function', name: 'run_sql', description: 'Run a read-only SQL query.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } });
    expect(t.context.tools[1]).toEqual({ type: 'builtin', name: 'web_search', config: { type: 'web_search_20250305', max_uses: 3 } });
  });

  it('names an unsupported block', () => {
    expect(() => importAnthropicMessages({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'search_result', source: 'x' }] }] })).toThrow('/messages/0/content/0/type: block type "search_result" is not supported');
    expect(() => importAnthropicMessages({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'f' } }] }] })).toThrow('/messages/0/content/0/source/type: document source "file" is not supported');
  });
});

describe('LLM Space thread files', () => {
  const raw = fixture('llmspace') as { blobs: Record<string, string> };
  const t = importThread(raw);

  it('maps title, model, system prompt and variables', () => {
    expect(validateThread(t).ok).toBe(true);
    expect(t.title).toBe('Screenshot triage');
    expect(t.model).toEqual({ provider: 'openai', id: 'gpt-4.1', params: { temperature: 0.5, maxTokens: 800, reasoning: { effort: 'low' } } });
    expect(t.context.systemPrompt).toBe('You triage bug reports from screenshots.');
    expect(t.context.variables).toEqual({ product: 'Stepwise' });
  });

  it('unpacks images from the blobs table', () => {
    const image = users(t)[0].content[1];
    expect(image).toEqual({ type: 'image', mimeType: 'image/png', data: Object.values(raw.blobs)[0] });
    expect(image.type === 'image' && 'data' in image && image.data.length).toBeGreaterThan(1024);
  });

  it('keeps thinking, tool calls with input and output, usage and timing', () => {
    const a = assistants(t)[0];
    expect(a.id).toBe('a1');
    expect(a.content).toEqual([{ type: 'thinking', thinking: 'The dialog overflows the window.' }, { type: 'text', text: 'Filing it now.' }]);
    expect(a.toolCalls).toEqual([{ id: 'tc1', name: 'create_issue', arguments: { title: 'Dialog cut off', severity: 'minor' }, output: { content: [{ type: 'text', text: 'Created issue #42' }], isError: false } }]);
    expect(a.usage).toEqual({ inputTokens: 812, outputTokens: 64, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 20 });
    expect(a.timing).toEqual({ firstTokenMs: 420, durationMs: 1800 });
  });

  it('turns a tool with an MCP source into an MCP tool', () => {
    expect(t.context.tools[1]).toMatchObject({ type: 'mcp', name: 'mcp__github__search_issues', server: 'github', toolName: 'search_issues' });
  });

  it('names an image whose blob is missing', () => {
    const broken = structuredClone(raw) as { blobs: Record<string, string> };
    broken.blobs = {};
    expect(() => importThread(broken)).toThrow(/\/context\/messages\/0\/content\/1\/data: image refers to blob .* not in the file's "blobs" table/);
  });
});

describe('unknown format', () => {
  it('throws naming what was looked for', () => {
    expect(() => importThread(fixture('unknown-format'))).toThrow(/unrecognised format: looked for a Stepwise thread .* an Anthropic Messages request/);
  });
});
