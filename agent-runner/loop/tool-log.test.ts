/**
 * A tool's log (MCP logging) travels line by line: each log line is sent once, as a
 * `node_update`, never the whole log again (docs/architecture.md#envelopes). What a consumer
 * shows is the tool's last 500 lines, as the runner keeps them.
 */
import { describe, expect, it } from 'vitest';
import { startRun } from '../run';
import { StreamConsumer } from '../../shared/stream/consumer';
import type { RunnerToHost } from '../../shared/protocol/runner';
import type { StreamEnvelope } from '../../shared/protocol/envelopes';
import type { NodeLog } from '../../shared/protocol/nodes';
import type { ToolExecutor } from '../tools/types';
import { scriptedThread, sumTool } from '../../tests/support/threads';

/** Log lines each frame carries: a node_update's new lines, or a tree_update's whole `attrs.logs`. */
function linesCarried(m: RunnerToHost): number {
  if (m.type === 'node_update') return (m.logs?.length ?? 0) + (Array.isArray(m.attrs?.logs) ? m.attrs.logs.length : 0);
  if (m.type === 'tree_update') return m.nodes.reduce((n, node) => n + (Array.isArray(node.attrs?.logs) ? node.attrs.logs.length : 0), 0);
  return 0;
}

describe("a tool's log", () => {
  it('sends each line once while the tool runs, and consumers keep its last 500 lines', async () => {
    const LINES = 1200;
    const chatty: ToolExecutor = {
      handles: (t) => t.name === 'get_sum',
      async execute(_tool, _call, ctx) {
        for (let i = 0; i < LINES; i++) {
          ctx.log('info', `line ${i}`);
          if (i % 100 === 99) await new Promise((r) => setTimeout(r, 20)); // spans several flush windows
        }
        return { content: [{ type: 'text', text: 'done' }], isError: false };
      },
    };
    const thread = scriptedThread([], { tools: [sumTool] });
    thread.context.messages.push({ id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'get_sum', arguments: { a: 1, b: 2 } }] });
    const out: RunnerToHost[] = [];
    const h = startRun({ runId: 'run1', threadId: thread.id, thread, mode: 'tool', providers: [], home: '/tmp/none', workspaceDir: '/tmp/none' }, (m) => out.push(m), { executors: [chatty] });
    await h.done;

    const whileRunning = out.filter((m) => !(m.type === 'tree_update' && m.nodes.some((n) => n.kind === 'tool' && n.status === 'completed')));
    expect(whileRunning.reduce((n, m) => n + linesCarried(m), 0)).toBe(LINES);
    // Several frames, not one per line (merged per flush window), and none carries the log so far.
    const updates = out.filter((m) => m.type === 'node_update');
    expect(updates.length).toBeGreaterThan(1);
    expect(updates.length).toBeLessThan(LINES);

    const consumer = new StreamConsumer();
    for (const m of out) if (m.type === 'tree_update' || m.type === 'node_update' || m.type === 'llm_delta') consumer.apply(m as StreamEnvelope);
    const tool = [...consumer.nodes.values()].find((n) => n.node?.kind === 'tool')!;
    const logs = tool.node!.attrs!.logs as NodeLog[];
    expect(logs.map((l) => l.data)).toEqual(Array.from({ length: 500 }, (_, i) => `line ${LINES - 500 + i}`));
    expect(tool.status).toBe('completed');
  });
});
