/**
 * salvageResult: what a run that ended without its own result adds to its thread, from its
 * tree — the same messages a cut provider stream leaves — and, for run files that may have been
 * edited by hand, never a throw and never a message the thread schema refuses.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ExecNode } from '../../../shared/protocol/nodes';
import { AssistantMessageSchema } from '../../../shared/thread/messages';
import { salvageResult } from './salvage';

const node = (id: string, kind: ExecNode['kind'], status: ExecNode['status'], extra: Partial<ExecNode> = {}): ExecNode => ({
  id,
  runId: 'r',
  kind,
  name: kind,
  status,
  startedAt: 1000,
  ...extra,
});
const result = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: false });

describe('salvageResult', () => {
  it('a ReAct run: each LLM call under the run becomes a message; finished tool results fill their calls; the last reply is partial', () => {
    const nodes: ExecNode[] = [
      node('root', 'run', 'interrupted'),
      node('l1', 'llm', 'completed', {
        parentId: 'root',
        model: 'p/m',
        usage: { inputTokens: 5, outputTokens: 2 },
        timing: { firstTokenMs: 3, durationMs: 40 },
        output: { text: 'Adding.', toolCalls: [{ id: 'c1', name: 'sum', arguments: { a: 1 } }, { id: 'c2', name: 'sum', arguments: { a: 2 } }], stopReason: 'tool_calls' },
      }),
      node('t1', 'tool', 'completed', { parentId: 'l1', toolCallId: 'c1', output: result('1') }),
      node('t2', 'tool', 'interrupted', { parentId: 'l1', toolCallId: 'c2' }),
      // A nested call (sampling under a tool) adds no message.
      node('s1', 'sampling', 'completed', { parentId: 't2', output: { text: 'nested' } }),
      node('l2', 'llm', 'interrupted', {
        parentId: 'root',
        model: 'p/m',
        endedAt: 1250,
        output: { text: 'The sum', thinking: 'hm', toolCalls: [{ id: 'c3', name: 'sum', arguments: {}, rawArguments: '{"a": 1' }, { id: 'c4', name: 'sum', arguments: { b: 2 }, rawArguments: '{"b": 2}' }] },
      }),
    ];
    const { messages, toolOutputs } = salvageResult({ mode: 'react', nodes }, 'its runner process stopped');
    expect(toolOutputs).toEqual([]);
    expect(messages).toEqual([
      {
        id: expect.any(String),
        role: 'assistant',
        content: [{ type: 'text', text: 'Adding.' }],
        toolCalls: [{ id: 'c1', name: 'sum', arguments: { a: 1 }, output: result('1') }, { id: 'c2', name: 'sum', arguments: { a: 2 } }],
        model: 'p/m',
        usage: { inputTokens: 5, outputTokens: 2 },
        timing: { firstTokenMs: 3, durationMs: 40 },
        stopReason: 'tool_calls',
      },
      {
        id: expect.any(String),
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'hm' }, { type: 'text', text: 'The sum' }],
        // As the stream assembles a call: incomplete text kept raw with no arguments, complete text parsed.
        toolCalls: [{ id: 'c3', name: 'sum', arguments: {}, rawArguments: '{"a": 1' }, { id: 'c4', name: 'sum', arguments: { b: 2 } }],
        model: 'p/m',
        timing: { durationMs: 250 },
        stopReason: 'error',
        errorMessage: 'The reply was interrupted: its runner process stopped before it finished. The partial reply is kept; try again.',
      },
    ]);
    expect(messages[0].id).not.toBe(messages[1].id);
  });

  it('a cancelled call is marked cancelled, a failed one keeps its error; an empty reply adds nothing', () => {
    const nodes: ExecNode[] = [
      node('root', 'run', 'interrupted'),
      node('l1', 'llm', 'error', { parentId: 'root', output: { text: 'par' }, error: { message: 'provider exploded' } }),
      node('l2', 'llm', 'cancelled', { parentId: 'root', output: { text: 'tial' } }),
      node('l3', 'llm', 'interrupted', { parentId: 'root', output: { text: '' } }),
      node('l4', 'llm', 'interrupted', { parentId: 'root' }),
    ];
    const { messages } = salvageResult({ mode: 'step', nodes }, 'x');
    expect(messages.map((m) => [m.stopReason, m.errorMessage])).toEqual([
      ['error', 'provider exploded'],
      ['cancelled', undefined],
    ]);
  });

  it('keeps the provider-run tool blocks of a finished call, and drops ones of the wrong shape', () => {
    const block = { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'q' } };
    const nodes: ExecNode[] = [
      node('root', 'run', 'interrupted'),
      node('l1', 'llm', 'completed', { parentId: 'root', output: { text: 'Found it.', serverTools: [block, { id: 'no type' }], stopReason: 'stop' } }),
    ];
    expect(salvageResult({ mode: 'react', nodes }, 'the runner crashed').messages[0].content).toEqual([
      { type: 'server_tool', block },
      { type: 'text', text: 'Found it.' },
    ]);
  });

  it('a tool step: results of the calls that finished, for the last message when the run started', () => {
    const nodes: ExecNode[] = [
      node('root', 'run', 'interrupted'),
      node('t1', 'tool', 'completed', { parentId: 'root', toolCallId: 'c1', output: result('3') }),
      node('t2', 'tool', 'error', { parentId: 'root', toolCallId: 'c2', output: { content: [{ type: 'text', text: 'bad' }], isError: true } }),
      node('t3', 'tool', 'interrupted', { parentId: 'root', toolCallId: 'c3' }),
      node('t4', 'tool', 'completed', { parentId: 'root', toolCallId: 'c4', output: 'not a tool result' }),
    ];
    expect(salvageResult({ mode: 'tool', nodes, baseMessageIds: ['u1', 'a1'] }, 'x')).toEqual({
      messages: [],
      toolOutputs: [
        { messageId: 'a1', toolCallId: 'c1', output: result('3') },
        { messageId: 'a1', toolCallId: 'c2', output: { content: [{ type: 'text', text: 'bad' }], isError: true } },
      ],
    });
    expect(salvageResult({ mode: 'tool', nodes }, 'x').toolOutputs).toEqual([]);
  });

  it('never throws on a hand-edited run file, and every message it gives is a valid thread message', () => {
    const valid = TypeCompiler.Compile(AssistantMessageSchema);
    const json = fc.jsonValue({ maxDepth: 3 });
    // Mostly well-formed, with any JSON in place of any field now and then.
    const or = <T,>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: json, weight: 1 });
    const anyNode = fc.record(
      {
        id: fc.constantFrom('l1', 'l2', 't1', 't2'),
        parentId: or(fc.constantFrom('root', 'root', 'l1', 'l2')),
        kind: fc.constantFrom('llm', 'llm', 'tool', 'sampling', 'agent'),
        status: fc.constantFrom('running', 'completed', 'error', 'cancelled', 'interrupted', 'awaiting_input'),
        startedAt: or(fc.integer()),
        endedAt: or(fc.integer()),
        toolCallId: or(fc.constantFrom('c1', 'c2')),
        model: or(fc.string()),
        error: or(fc.record({ message: fc.string() })),
        usage: or(fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() })),
        timing: or(fc.record({ durationMs: fc.nat() })),
        output: fc.oneof(
          { arbitrary: json, weight: 1 },
          { arbitrary: fc.record({
            text: or(fc.string()),
            thinking: or(fc.string()),
            stopReason: or(fc.string()),
            toolCalls: or(fc.array(fc.record({ id: or(fc.constantFrom('c1', 'c2', '')), name: or(fc.string()), arguments: json, rawArguments: or(fc.string()) }, { requiredKeys: [] }))),
          }, { requiredKeys: [] }), weight: 4 },
          { arbitrary: fc.record({ content: or(fc.array(fc.record({ type: fc.constant('text'), text: fc.string() }))), isError: or(fc.boolean()) }, { requiredKeys: [] }), weight: 2 },
        ),
      },
      { requiredKeys: ['id', 'parentId', 'kind', 'status', 'startedAt', 'output'] },
    );
    const root = fc.record({ id: fc.constant('root'), runId: fc.constant('r'), kind: fc.constant('run'), name: fc.constant('run'), status: fc.constant('interrupted'), startedAt: fc.constant(0) });
    let made = 0;
    fc.assert(
      fc.property(fc.constantFrom('step', 'react', 'tool'), root, fc.array(anyNode, { maxLength: 8 }), fc.option(fc.array(fc.string()), { nil: undefined }), (mode, top, nodes, baseMessageIds) => {
        const r = salvageResult({ mode, nodes: [top, ...nodes] as unknown as ExecNode[], baseMessageIds }, 'x');
        for (const m of r.messages) expect(valid.Check(m), JSON.stringify(m)).toBe(true);
        made += r.messages.length;
      }),
      { numRuns: 300 },
    );
    expect(made).toBeGreaterThan(20); // the generator reaches the message-building paths
  });
});
