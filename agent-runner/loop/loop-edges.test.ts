import { describe, expect, it } from 'vitest';
import { startRun } from '../run';
import type { RunnerToHost } from '../../shared/protocol/runner';
import type { LlmDelta, RunResult, TreeUpdate } from '../../shared/protocol/envelopes';
import type { ExecNode } from '../../shared/protocol/nodes';
import type { Provider } from '../providers/types';
import type { ToolExecutor } from '../tools/types';
import { scriptedThread, sumTool, userMessage } from '../../tests/support/threads';

function collect(out: RunnerToHost[]) {
  const nodes = new Map<string, ExecNode>();
  for (const m of out) if (m.type === 'tree_update') for (const n of (m as TreeUpdate).nodes) nodes.set(n.id, n);
  return [...nodes.values()];
}

describe('agent loop edges', () => {
  it('tool calls of a response cut by the token limit are not executed, even in ReAct mode', async () => {
    // A provider stand-in: the property under test is the loop's reaction to stopReason "length".
    const truncated: Provider = {
      async stream(_req, sink) {
        sink.text('Calling');
        return { content: [{ type: 'text', text: 'Calling' }], toolCalls: [{ id: 'c1', name: 'get_sum', arguments: { a: 1 }, rawArguments: '{"a": 1' }], stopReason: 'length' };
      },
    };
    let executed = 0;
    const executor: ToolExecutor = { handles: () => true, execute: async () => (executed++, { content: [], isError: false }) };
    const thread = { ...scriptedThread([], { tools: [{ ...sumTool, type: 'builtin' as const }] }), model: { provider: 'cut', id: 'm', params: {} } };
    const out: RunnerToHost[] = [];
    const h = startRun({ runId: 'r', threadId: thread.id, thread, mode: 'react', providers: [], home: '/tmp', workspaceDir: '/tmp' }, (m) => out.push(m), { providerFor: () => truncated, executors: [executor] });
    await h.done;
    expect(executed).toBe(0);
    const nodes = collect(out);
    expect(nodes.filter((n) => n.kind === 'tool')).toHaveLength(0);
    expect(nodes.find((n) => n.kind === 'run')!.attrs).toMatchObject({ note: expect.stringMatching(/cut by the token limit/) });
    expect((out.find((m) => m.type === 'run_result') as RunResult).messages).toHaveLength(1);
  });

  it('parallel tool calls with nested sampling stream their nested nodes at the same time', async () => {
    const thread = scriptedThread(
      [
        { when: 'go', toolCalls: [{ name: 'ask', arguments: { q: 'one' } }, { name: 'ask', arguments: { q: 'two' } }] },
        { when: 'sample', text: Array.from({ length: 30 }, (_, i) => `tok${i}`).join(' ') },
      ],
      { tokensPerSecond: 300, tools: [{ type: 'builtin', name: 'ask' }], messages: [userMessage('go')] },
    );
    // An executor that asks the thread's model through a nested sampling call, like an MCP server would.
    const sampler: ToolExecutor = {
      handles: () => true,
      async execute(_tool, call, ctx) {
        const r = await ctx.nestedLlm({ kind: 'sampling', name: `sampling ${String(call.arguments.q)}`, systemPrompt: '', messages: [userMessage('sample please')] });
        return { content: r.content.filter((p) => p.type === 'text'), isError: false };
      },
    };
    const first: RunnerToHost[] = [];
    await startRun({ runId: 'r1', threadId: thread.id, thread, mode: 'step', providers: [], home: '/tmp', workspaceDir: '/tmp' }, (m) => first.push(m)).done;
    const withCalls = { ...thread, context: { ...thread.context, messages: [...thread.context.messages, ...(first.find((m) => m.type === 'run_result') as RunResult).messages] } };
    const out: RunnerToHost[] = [];
    await startRun({ runId: 'r2', threadId: thread.id, thread: withCalls, mode: 'tool', providers: [], home: '/tmp', workspaceDir: '/tmp' }, (m) => out.push(m), { executors: [sampler] }).done;
    const nodes = collect(out);
    const tools = nodes.filter((n) => n.kind === 'tool');
    const samplings = nodes.filter((n) => n.kind === 'sampling');
    expect(samplings.map((s) => s.parentId).sort()).toEqual(tools.map((t) => t.id).sort());
    // Interleaved: deltas of the two sampling nodes alternate before either closes.
    const order = out.filter((m): m is LlmDelta => m.type === 'llm_delta').map((d) => d.nodeId);
    const firstEnd = Math.min(...samplings.map((s) => order.lastIndexOf(s.id)));
    const before = new Set(order.slice(0, firstEnd));
    expect(before.size).toBe(2);
    for (const s of samplings) expect(s.output).toMatchObject({ text: expect.stringContaining('tok29') });
  });

  it('ReAct runs read-only MCP tools on its own and stops at a destructive one unless the thread allows it', async () => {
    const mcp = (name: string, annotations: Record<string, boolean>) => ({ type: 'mcp' as const, name, server: 's', toolName: name, inputSchema: { type: 'object' }, annotations });
    const tools = [mcp('read', { readOnlyHint: true }), mcp('wipe', { destructiveHint: true })];
    const ran: string[] = [];
    const executor: ToolExecutor = { handles: () => true, execute: async (_t, call) => (ran.push(call.name), { content: [{ type: 'text', text: 'done' }], isError: false }) };
    const script = [{ when: 'go', toolCalls: [{ name: 'read', arguments: {} }, { name: 'wipe', arguments: {} }] }, { text: 'finished' }];
    const run = async (allowDestructive: boolean) => {
      ran.length = 0;
      const thread = { ...scriptedThread(script, { tools, messages: [userMessage('go')] }), settings: { allowDestructive } };
      const out: RunnerToHost[] = [];
      await startRun({ runId: 'r', threadId: thread.id, thread, mode: 'react', providers: [], home: '/tmp', workspaceDir: '/tmp' }, (m) => out.push(m), { executors: [executor] }).done;
      return collect(out).filter((n) => n.kind === 'tool').map((n) => `${n.name}:${n.status}`);
    };
    expect(await run(false)).toEqual(['wipe:awaiting_input', 'read:completed']);
    expect(ran).toEqual(['read']);
    expect(await run(true)).toEqual(['read:completed', 'wipe:completed']);
    expect(ran.sort()).toEqual(['read', 'wipe']);
  });

  it('a provider that numbers its tool calls call_0 on every turn: each repeat of a thread id is renamed, and the tool nodes name the new id', async () => {
    // Like an OpenAI-compatible server that sends no ids (the Chat provider then numbers them).
    let turn = 0;
    const reusing: Provider = {
      async stream() {
        turn++;
        if (turn > 2) return { content: [{ type: 'text', text: 'done' }], toolCalls: [], stopReason: 'stop' };
        return { content: [], toolCalls: [{ id: 'call_0', name: 'get_sum', arguments: { a: turn } }, { id: 'call_1', name: 'get_sum', arguments: { b: turn } }], stopReason: 'tool_calls' };
      },
    };
    const executor: ToolExecutor = { handles: () => true, execute: async () => ({ content: [{ type: 'text', text: 'ok' }], isError: false }) };
    const earlier = { id: 'a0', role: 'assistant' as const, content: [], toolCalls: [{ id: 'call_0', name: 'get_sum', arguments: {}, output: { content: [], isError: false } }] };
    const thread = { ...scriptedThread([], { tools: [{ ...sumTool, type: 'builtin' as const }], messages: [userMessage('go'), earlier, userMessage('again')] }), model: { provider: 'reuse', id: 'm', params: {} } };
    const out: RunnerToHost[] = [];
    await startRun({ runId: 'r', threadId: thread.id, thread, mode: 'react', providers: [], home: '/tmp', workspaceDir: '/tmp' }, (m) => out.push(m), { providerFor: () => reusing, executors: [executor] }).done;
    const added = (out.find((m) => m.type === 'run_result') as RunResult).messages;
    const ids = added.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    expect(ids).toEqual(['call_0-2', 'call_1', 'call_0-3', 'call_1-2']);
    expect(added.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.arguments) : []))).toEqual([{ a: 1 }, { b: 1 }, { a: 2 }, { b: 2 }]);
    expect(collect(out).filter((n) => n.kind === 'tool').map((n) => n.toolCallId).sort()).toEqual([...ids].sort());
  });
});
