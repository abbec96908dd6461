/**
 * The example thread offered on first start and embedded in the viewer (`?view`): the offline
 * `scripted` model (docs/architecture.md#providers) with one function tool, so it runs with no key and no network.
 */
import type { Thread } from '../../shared/thread/schema';
import type { RunRecord } from '../../shared/protocol/host-api';

/** A fresh copy of the example thread. */
export function exampleThread(): Thread {
  return {
    version: 1,
    id: '00000000-0000-4000-8000-000000000001',
    title: 'Example — add two numbers',
    model: {
      provider: 'scripted',
      id: 'scripted',
      params: { temperature: 0.2, maxTokens: 1024, tokensPerSecond: 40 },
      script: [
        { when: 'add|sum', thinking: 'The user wants a sum.\nI should call get-sum rather than guess.', toolCalls: [{ name: 'get-sum', arguments: { a: 2, b: 3 } }] },
        { text: 'The sum of 2 and 3 is 5.' },
      ],
    },
    context: {
      systemPrompt: 'You are a careful assistant. Use tools for arithmetic.',
      tools: [
        {
          type: 'function',
          name: 'get-sum',
          description: 'Add two numbers.',
          parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        },
      ],
      messages: [
        { id: 'm1', role: 'user', content: [{ type: 'text', text: 'Please add 2 and 3.' }] },
        {
          id: 'm2',
          role: 'assistant',
          content: [{ type: 'thinking', thinking: 'The user wants a sum.\nI should call get-sum rather than guess.' }],
          toolCalls: [{ id: 'call_1', name: 'get-sum', arguments: { a: 2, b: 3 } }],
          usage: { inputTokens: 42, outputTokens: 18 },
          timing: { firstTokenMs: 120, durationMs: 640 },
          model: 'scripted/scripted',
        },
      ],
    },
    settings: { autoRunTools: false, maxTurns: 8 },
    runRefs: [{ id: 'run-example', startedAt: 1_700_000_000_000, endedAt: 1_700_000_000_640, status: 'completed', mode: 'step', preview: 'get-sum(a: 2, b: 3)' }],
  };
}

/** A stored run of the example thread, for the viewer's execution panel. */
export function exampleRun(): RunRecord {
  const t0 = 1_700_000_000_000;
  return {
    runId: 'run-example',
    threadId: '00000000-0000-4000-8000-000000000001',
    mode: 'step',
    status: 'completed',
    startedAt: t0,
    endedAt: t0 + 640,
    nodes: [
      { id: 'run-example', runId: 'run-example', kind: 'run', name: 'step', status: 'completed', startedAt: t0, endedAt: t0 + 640 },
      {
        id: 'llm-1',
        runId: 'run-example',
        parentId: 'run-example',
        kind: 'llm',
        name: 'scripted',
        model: 'scripted/scripted',
        status: 'completed',
        startedAt: t0,
        endedAt: t0 + 640,
        input: { system: 'You are a careful assistant. Use tools for arithmetic.', messages: [{ role: 'user', content: 'Please add 2 and 3.' }] },
        output: {
          text: '',
          thinking: 'The user wants a sum.\nI should call get-sum rather than guess.',
          toolCalls: [{ id: 'call_1', name: 'get-sum', arguments: { a: 2, b: 3 } }],
          stopReason: 'tool_use',
        },
        usage: { inputTokens: 42, outputTokens: 18 },
        timing: { firstTokenMs: 120, durationMs: 640 },
      },
      { id: 'tool-1', runId: 'run-example', parentId: 'llm-1', kind: 'tool', name: 'get-sum', toolCallId: 'call_1', status: 'awaiting_input', startedAt: t0 + 640, input: { a: 2, b: 3 } },
    ],
    records: [
      {
        runId: 'run-example',
        nodeId: 'llm-1',
        api: 'scripted',
        request: { model: 'scripted', messages: [{ role: 'user', content: 'Please add 2 and 3.' }], tools: ['get-sum'] },
        events: [
          { t: 120, data: { type: 'thinking', delta: 'The user wants a sum.' } },
          { t: 400, data: { type: 'tool_call', name: 'get-sum', arguments: '{"a": 2, "b": 3}' } },
        ],
      },
    ],
  };
}
