// OpenAI Responses custom (free-form) tools and refusals, through the real `openai` client
// against a local SSE server. Shapes: openai `CustomTool`, `ResponseCustomToolCall`,
// `ResponseCustomToolCallInputDeltaEvent`, `ResponseCustomToolCallOutput`, `ResponseOutputRefusal`.
import { describe, expect, it } from 'vitest';
import { createOpenAIResponsesProvider } from '../../../agent-runner/providers/openai-responses';
import { chunkBytes, sseServerPerFile } from '../../support/sse-server';
import { llmRequest, resp, respResponse, testSink } from './fixtures';
import { Value } from '@sinclair/typebox/value';
import { FunctionToolSchema } from '../../../shared/thread/tools';
import type { Message } from '../../../shared/thread/messages';
import { toolSpecs } from '../../../agent-runner/loop/messages';
import { toAssistantMessage } from '../../../agent-runner/providers/types';

const server = sseServerPerFile();

const provider = () => createOpenAIResponsesProvider({ id: 'openai-r', apiKey: 'sk-test', baseUrl: `${server().url}/v1` });
const model = { id: 'gpt-5' };
const usage = { input_tokens: 50, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 70 };

const sql = 'SELECT name FROM users\nWHERE id = 1;';

function customCallStream(): string {
  const item = { id: 'ctc_1', type: 'custom_tool_call', status: 'in_progress', call_id: 'call_sql1', name: 'run_sql', input: '' };
  return (
    resp({ type: 'response.created', response: respResponse('in_progress') }) +
    resp({ type: 'response.output_item.added', output_index: 0, item }) +
    resp({ type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', output_index: 0, delta: 'SELECT name FROM users\n' }) +
    resp({ type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', output_index: 0, delta: 'WHERE id = 1;' }) +
    resp({ type: 'response.custom_tool_call_input.done', item_id: 'ctc_1', output_index: 0, input: sql }) +
    resp({ type: 'response.output_item.done', output_index: 0, item: { ...item, status: 'completed', input: sql } }) +
    resp({ type: 'response.completed', response: respResponse('completed', { usage }) })
  );
}

describe('responses custom tools', () => {
  it('declares a custom tool, keeps the custom_tool_call, sends its output back as custom_tool_call_output', async () => {
    const tool = { type: 'function' as const, name: 'run_sql', description: 'Runs one SQL query.', parameters: {}, custom: { format: { type: 'grammar' as const, syntax: 'lark' as const, definition: 'start: /.+/s' } } };
    expect(Value.Check(FunctionToolSchema, tool)).toBe(true);
    expect(Value.Check(FunctionToolSchema, { ...tool, custom: { format: { type: 'grammar', syntax: 'peg', definition: '' } } })).toBe(false);

    server().reply({ stream: chunkBytes(customCallStream(), 53) });
    const sink = testSink();
    const r = await provider().stream(llmRequest(model, { tools: toolSpecs([tool]) }), sink);
    expect(r.error).toBeUndefined();
    expect(r.stopReason).toBe('tool_calls');
    expect(r.toolCalls).toEqual([{ id: 'call_sql1', name: 'run_sql', arguments: {}, rawArguments: sql, custom: true }]);
    expect(sink.args()).toEqual({ 0: sql });
    expect((server().requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual([
      { type: 'custom', name: 'run_sql', description: 'Runs one SQL query.', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/s' } },
    ]);

    const assistant = toAssistantMessage('a1', r, 'openai-r/gpt-5');
    assistant.toolCalls![0].output = { content: [{ type: 'text', text: 'Ada' }], isError: false };
    const messages: Message[] = [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Name of user 1?' }] }, assistant];
    server().reply({ stream: [resp({ type: 'response.completed', response: respResponse('completed', { usage }) })] });
    await provider().stream(llmRequest(model, { messages, tools: toolSpecs([tool]) }), testSink());
    expect((server().requests.at(-1)!.body as { input: unknown[] }).input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Name of user 1?' }] },
      { type: 'custom_tool_call', call_id: 'call_sql1', name: 'run_sql', input: sql },
      { type: 'custom_tool_call_output', call_id: 'call_sql1', output: 'Ada' },
    ]);
  });

  it('a custom call whose input looks like JSON is still kept as its text', async () => {
    const item = { id: 'ctc_2', type: 'custom_tool_call', call_id: 'call_j', name: 'raw', input: '{"a": 1}' };
    server().reply({ stream: [resp({ type: 'response.output_item.done', output_index: 0, item }) + resp({ type: 'response.completed', response: respResponse('completed', { usage }) })] });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.toolCalls).toEqual([{ id: 'call_j', name: 'raw', arguments: {}, rawArguments: '{"a": 1}', custom: true }]);
  });
});

describe('responses refusals', () => {
  it('a refusal content part ends the call as an error with the refusal text', async () => {
    server().reply({
      stream: [
        resp({ type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } }) +
          resp({ type: 'response.content_part.added', item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'refusal', refusal: '' } }) +
          resp({ type: 'response.refusal.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: "I can't help " }) +
          resp({ type: 'response.refusal.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'with that.' }) +
          resp({ type: 'response.refusal.done', item_id: 'msg_1', output_index: 0, content_index: 0, refusal: "I can't help with that." }) +
          resp({ type: 'response.completed', response: respResponse('completed', { usage }) }),
      ],
    });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r.stopReason).toBe('content_filter');
    expect(r.error).toMatchObject({ code: 'refusal', message: expect.stringContaining("I can't help with that") });
    expect(r.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
    expect(r.usage).toEqual({ inputTokens: 50, outputTokens: 20 });
  });

  it('incomplete with reason content_filter ends the call as an error, partial text kept', async () => {
    server().reply({
      stream: [
        resp({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'First, ' }) +
          resp({ type: 'response.incomplete', response: respResponse('incomplete', { incomplete_details: { reason: 'content_filter' }, usage }) }),
      ],
    });
    const r = await provider().stream(llmRequest(model), testSink());
    expect(r).toMatchObject({ stopReason: 'content_filter', error: { code: 'refusal' }, content: [{ type: 'text', text: 'First, ' }] });
    expect(r.error!.message).toContain('content_filter');
  });
});
