/** The importers' shared reading of a request's `tools` array (requestTools in common.ts). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Value } from '@sinclair/typebox/value';
import { ImportError, builtinByType, requestTools, type RequestTool } from './common';
import { ToolSchema } from '../tools';
import { importOpenAIChat } from './openai-chat';
import { importOpenAIResponses } from './openai-responses';
import { importAnthropicMessages } from './anthropic-messages';

/** The entry reader of the Responses format: `{ type: 'function', name, description, parameters }`. */
const flat = (t: Record<string, unknown>, i: number): RequestTool =>
  t.type === 'function' ? { kind: 'function', name: t.name, namePointer: `/tools/${i}/name`, description: t.description, parameters: t.parameters } : builtinByType(t, i);

/** The ImportError `fn` throws, as `pointer: message` lines. */
function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ImportError) return e.problems.map((p) => `${p.pointer}: ${p.message}`);
    throw e;
  }
  throw new Error('expected an ImportError');
}

describe('requestTools', () => {
  it('reads functions and keeps built-in tools with their fields, named by type or position', () => {
    const tools = requestTools('openai-responses', [
      { type: 'function', name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      { type: 'function', name: 'no_schema', parameters: 'not a schema' },
      { type: 'web_search_preview', search_context_size: 'low' },
      { search: true },
    ], flat);
    expect(tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      { type: 'function', name: 'no_schema', parameters: { type: 'object', properties: {} } },
      { type: 'builtin', name: 'web_search_preview', config: { search_context_size: 'low' } },
      { type: 'builtin', name: 'tool_3', config: { search: true } },
    ]);
    expect(requestTools('openai-responses', undefined, flat)).toEqual([]);
  });

  it('names the pointer of what is wrong', () => {
    expect(problems(() => requestTools('openai-chat', { a: 1 }, flat))).toEqual(['/tools: expected an array of tools']);
    expect(problems(() => requestTools('openai-chat', [null], flat))).toEqual(['/tools/0: expected a tool object']);
    expect(problems(() => requestTools('openai-chat', [{}, { type: 'function', name: '' }], flat))).toEqual(['/tools/1/name: expected the function name']);
  });

  it('property: any tools array gives valid Thread tools or an ImportError, never another error', () => {
    const entry = fc.oneof(
      fc.record({ type: fc.constant('function'), name: fc.oneof(fc.string(), fc.integer()), description: fc.option(fc.string()), parameters: fc.option(fc.object()) }, { requiredKeys: ['type'] }),
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.oneof(fc.array(entry, { maxLength: 6 }), fc.jsonValue()), (tools) => {
        let out;
        try {
          out = requestTools('openai-responses', tools, flat);
        } catch (e) {
          expect(e).toBeInstanceOf(ImportError);
          return;
        }
        for (const t of out) expect(Value.Check(ToolSchema, t)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the three request importers read tools through it', () => {
  const user = { role: 'user', content: 'hi' };
  it('OpenAI Chat: tools[].function; a function without a name is named at /function/name', () => {
    const t = importOpenAIChat({ model: 'gpt-4o', messages: [user], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }, { type: 'code_interpreter' }] });
    expect(t.context.tools.map((x) => `${x.type}:${x.name}`)).toEqual(['function:f', 'builtin:code_interpreter']);
    expect(problems(() => importOpenAIChat({ model: 'gpt-4o', messages: [user], tools: [{ type: 'function' }] }))).toEqual(['/tools/0/function/name: expected the function name']);
  });

  it('OpenAI Responses: flat function entries', () => {
    const t = importOpenAIResponses({ model: 'gpt-5', input: 'hi', tools: [{ type: 'function', name: 'f' }, { type: 'file_search', vector_store_ids: ['v'] }] });
    expect(t.context.tools).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object', properties: {} } },
      { type: 'builtin', name: 'file_search', config: { vector_store_ids: ['v'] } },
    ]);
  });

  it('Anthropic Messages: input_schema functions, server tools by name; every entry needs a name', () => {
    const t = importAnthropicMessages({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [user], tools: [{ name: 'f', input_schema: { type: 'object' } }, { type: 'bash_20250124', name: 'bash' }] });
    expect(t.context.tools).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object' } },
      { type: 'builtin', name: 'bash', config: { type: 'bash_20250124' } },
    ]);
    expect(problems(() => importAnthropicMessages({ model: 'c', max_tokens: 1, messages: [user], tools: [{ input_schema: {} }] }))).toEqual(['/tools/0/name: expected the tool name']);
    expect(problems(() => importAnthropicMessages({ model: 'c', max_tokens: 1, messages: [user], tools: ['bash'] }))).toEqual(['/tools/0: expected a tool object']);
  });
});
