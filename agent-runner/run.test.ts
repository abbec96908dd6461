import { describe, expect, it } from 'vitest';
import { startRun } from './run';
import { StreamConsumer } from '../shared/stream/consumer';
import type { RunSpec, RunnerToHost } from '../shared/protocol/runner';
import type { ExecNode } from '../shared/protocol/nodes';
import type { RunResult, TreeUpdate, LlmDelta } from '../shared/protocol/envelopes';
import type { Thread } from '../shared/thread/schema';
import type { ToolExecutor } from './tools/types';
import { scriptedThread, sumTool, userMessage } from '../tests/support/threads';
import type { AssistantMessage } from '../shared/thread/messages';

function spec(thread: Thread, mode: RunSpec['mode'] = 'step', extra: Partial<RunSpec> = {}): RunSpec {
  return { runId: 'run1', threadId: thread.id, thread, mode, providers: [], home: '/tmp/none', workspaceDir: '/tmp/none', ...extra };
}

async function run(s: RunSpec, opts: Parameters<typeof startRun>[2] = {}, during?: (h: ReturnType<typeof startRun>, out: RunnerToHost[]) => void) {
  const out: RunnerToHost[] = [];
  const h = startRun(s, (m) => out.push(m), opts);
  during?.(h, out);
  await h.done;
  const nodes = new Map<string, ExecNode>();
  const consumer = new StreamConsumer();
  for (const m of out) {
    if (m.type === 'tree_update') for (const n of (m as TreeUpdate).nodes) nodes.set(n.id, n);
    if (m.type === 'tree_update' || m.type === 'llm_delta') consumer.apply(m as TreeUpdate | LlmDelta);
  }
  const result = out.find((m) => m.type === 'run_result') as RunResult;
  return { out, nodes: [...nodes.values()], result, consumer };
}

describe('agent loop, in-process', () => {
  it('step mode: streams the reply as deltas and returns one assistant message', async () => {
    const t = scriptedThread([{ thinking: 'Let me think.', text: 'Hello there, friend.' }]);
    const { out, nodes, result, consumer } = await run(spec(t));
    const llm = nodes.find((n) => n.kind === 'llm')!;
    expect(llm.status).toBe('completed');
    expect(llm.output).toMatchObject({ text: 'Hello there, friend.', thinking: 'Let me think.' });
    expect(llm.timing?.durationMs).toBeGreaterThanOrEqual(0);
    // The scripted model reports usage like a real one: a token per streamed piece.
    expect(llm.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: 6 }); // 'Let ', 'me ', 'think.' + 'Hello ', 'there, ', 'friend.'
    const deltas = out.filter((m): m is LlmDelta => m.type === 'llm_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => d.seq)).toEqual(deltas.map((_, i) => i + 1));
    expect(consumer.get(llm.id)!.text).toBe('Hello there, friend.');
    expect(result.status).toBe('completed');
    const msg = result.messages[0] as AssistantMessage;
    expect(msg.role).toBe('assistant');
    expect(msg.content).toEqual([{ type: 'thinking', thinking: 'Let me think.' }, { type: 'text', text: 'Hello there, friend.' }]);
    expect(out[out.length - 1]).toEqual({ v: 1, type: 'done', runId: 'run1' });
    const root = nodes.find((n) => n.kind === 'run')!;
    expect(root.status).toBe('completed');
  });

  it('step mode: tool calls end the run with their tool nodes awaiting input', async () => {
    const t = scriptedThread([{ text: 'Adding.', toolCalls: [{ name: 'get_sum', arguments: { a: 2, b: 3 } }, { name: 'get_sum', arguments: { a: 1, b: 1 } }] }], { tools: [sumTool] });
    const { nodes, result, consumer } = await run(spec(t));
    const llm = nodes.find((n) => n.kind === 'llm')!;
    const tools = nodes.filter((n) => n.kind === 'tool');
    expect(tools.map((n) => [n.status, n.parentId, n.input])).toEqual([
      ['awaiting_input', llm.id, { a: 2, b: 3 }],
      ['awaiting_input', llm.id, { a: 1, b: 1 }],
    ]);
    const msg = result.messages[0] as AssistantMessage;
    expect(msg.toolCalls!.map((c) => c.arguments)).toEqual([{ a: 2, b: 3 }, { a: 1, b: 1 }]);
    expect(tools.map((n) => n.toolCallId)).toEqual(msg.toolCalls!.map((c) => c.id));
    // Arguments streamed on tool_args and assemble to the same JSON.
    expect(JSON.parse(consumer.get(llm.id)!.toolArgs[0])).toEqual({ a: 2, b: 3 });
  });

  it('refuses to call the model while tool calls wait for results', async () => {
    const first = await run(spec(scriptedThread([{ toolCalls: [{ name: 'get_sum', arguments: { a: 1, b: 2 } }] }], { tools: [sumTool] })));
    const t = scriptedThread([{ text: 'x' }], { tools: [sumTool], messages: [userMessage('hi'), ...first.result.messages] });
    const { nodes, result } = await run(spec(t));
    expect(result.status).toBe('error');
    expect(nodes.find((n) => n.kind === 'run')!.error!.message).toMatch(/waiting for results: get_sum/);
  });

  it('tool step runs the pending calls in parallel through an executor and returns their outputs', async () => {
    const first = await run(spec(scriptedThread([{ toolCalls: [{ name: 'get_sum', arguments: { a: 2, b: 3 } }, { name: 'get_sum', arguments: { a: 10, b: 5 } }] }], { tools: [sumTool] })));
    const t = scriptedThread([], { tools: [sumTool], messages: [userMessage('hi'), ...first.result.messages] });
    let concurrent = 0;
    let maxConcurrent = 0;
    const adder: ToolExecutor = {
      handles: () => true,
      async execute(_tool, call) {
        const args = call.arguments as { a: number; b: number };
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await new Promise((r) => setTimeout(r, 30));
        concurrent--;
        return { content: [{ type: 'text', text: String(args.a + args.b) }], isError: false };
      },
    };
    const { nodes, result } = await run(spec(t, 'tool'), { executors: [adder] });
    expect(maxConcurrent).toBe(2);
    expect(result.toolOutputs!.map((o) => o.output.content)).toEqual([[{ type: 'text', text: '5' }], [{ type: 'text', text: '15' }]]);
    expect(nodes.filter((n) => n.kind === 'tool').map((n) => n.status)).toEqual(['completed', 'completed']);
  });

  it('react mode executes tools and continues until the model answers', async () => {
    const t = scriptedThread(
      [
        { when: 'add', toolCalls: [{ name: 'get_sum', arguments: { a: 2, b: 3 } }] },
        { when: '^5$', text: 'The sum is 5.' },
      ],
      { tools: [{ ...sumTool, type: 'builtin' as const }], messages: [userMessage('please add 2 and 3')] },
    );
    const adder: ToolExecutor = {
      handles: () => true,
      async execute(_t, call) {
        const args = call.arguments as { a: number; b: number };
        return { content: [{ type: 'text', text: String(args.a + args.b) }], isError: false };
      },
    };
    const { nodes, result } = await run(spec(t, 'react'), { executors: [adder] });
    expect(result.status).toBe('completed');
    expect(result.messages).toHaveLength(2);
    expect((result.messages[0] as AssistantMessage).toolCalls![0].output!.content).toEqual([{ type: 'text', text: '5' }]);
    expect((result.messages[1] as AssistantMessage).content).toEqual([{ type: 'text', text: 'The sum is 5.' }]);
    expect(nodes.filter((n) => n.kind === 'llm')).toHaveLength(2);
  });

  it('react mode stops at a tool that needs approval', async () => {
    const t = scriptedThread([{ toolCalls: [{ name: 'get_sum', arguments: { a: 1, b: 1 } }] }, { text: 'never' }], { tools: [{ ...sumTool, requiresApproval: true }] });
    const { nodes, result } = await run(spec(t, 'react'));
    expect(nodes.filter((n) => n.kind === 'tool').map((n) => n.status)).toEqual(['awaiting_input']);
    expect(nodes.filter((n) => n.kind === 'llm')).toHaveLength(1);
    expect(result.messages).toHaveLength(1);
  });

  it('cancel mid-stream keeps the partial text and closes every node cancelled', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const t = scriptedThread([{ text: long }], { tokensPerSecond: 200 });
    const { nodes, result, out } = await run(spec(t), {}, (h) => setTimeout(() => h.cancel(), 100));
    const llm = nodes.find((n) => n.kind === 'llm')!;
    expect(llm.status).toBe('cancelled');
    const partial = (llm.output as { text: string }).text;
    expect(partial.length).toBeGreaterThan(0);
    expect(long.startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(long.length);
    expect(nodes.find((n) => n.kind === 'run')!.status).toBe('cancelled');
    expect(result.status).toBe('cancelled');
    // No delta after the node's closing update.
    const closeAt = out.findIndex((m) => m.type === 'tree_update' && (m as TreeUpdate).nodes.some((n) => n.id === llm.id && n.status === 'cancelled'));
    expect(out.slice(closeAt).some((m) => m.type === 'llm_delta')).toBe(false);
  });

  it('an exhausted script ends the LLM node in error saying so', async () => {
    const t = scriptedThread([{ when: 'never-matches-this', text: 'x' }]);
    const { nodes, result } = await run(spec(t));
    const llm = nodes.find((n) => n.kind === 'llm')!;
    expect(llm.status).toBe('error');
    expect(llm.error!.message).toMatch(/script is exhausted/);
    expect(result.status).toBe('error');
  });

  it("a model call's record (its whole request) leaves the process before the call closes and the next starts", async () => {
    const t = scriptedThread([{ text: 'Hello.' }]);
    let release!: () => void;
    let asked = 0;
    const drained = () => {
      asked++;
      return new Promise<void>((r) => (release = r));
    };
    const out: RunnerToHost[] = [];
    const h = startRun(spec(t), (m) => out.push(m), { emitter: { drained } });
    for (let i = 0; i < 200 && !out.some((m) => m.type === 'llm_record'); i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    const closed = () => out.some((m) => m.type === 'tree_update' && m.nodes.some((n) => n.kind === 'llm' && n.status === 'completed'));
    expect([asked, closed()]).toEqual([1, false]);
    release();
    await h.done;
    expect(closed()).toBe(true);
  });
});
