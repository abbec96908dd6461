/**
 * A misbehaving runner for the bridge's validation tests: a real child process speaking the
 * runner's frames (shared/process-port.node.ts) that posts malformed, foreign and oversized
 * messages between valid ones, then finishes a normal run whose text is "ok".
 */
import { channelPort, flushLink } from '../../shared/process-port.node.js';
import type { HostToRunner } from '../../shared/protocol/runner';

const port = channelPort<HostToRunner, unknown>('run');

port.onMessage((msg) => {
  if (msg.type !== 'start') return;
  const runId = msg.spec.runId;
  const now = Date.now();
  const root = { id: `${runId}.root`, runId, kind: 'run', name: 'step', status: 'running', startedAt: now };
  const llm = { id: `${runId}.llm`, runId, parentId: root.id, kind: 'llm', name: 'bad', status: 'running', startedAt: now };
  port.post({ v: 1, type: 'tree_update', runId, nodes: [root, llm] });
  port.post('not an envelope');
  port.post({ v: 1, type: 'mystery', runId });
  port.post({ v: 1, type: 'tree_update', runId, nodes: [{ id: 'x' }] });
  port.post({ v: 1, type: 'llm_delta', runId: 'someone-else', nodeId: llm.id, channel: 'text', index: 0, delta: 'stolen', seq: 1 });
  port.post({ v: 1, type: 'llm_delta', runId, nodeId: llm.id, channel: 'text', index: 0, delta: 'x'.repeat(2 * 1024 * 1024), seq: 1 });
  port.post({ v: 1, type: 'tree_update', runId, nodes: [{ ...llm, runId: 'other-run' }] });
  port.post({ v: 1, type: 'llm_delta', runId, nodeId: llm.id, channel: 'text', index: 0, delta: 'ok', seq: 1 });
  const end = Date.now();
  port.post({ v: 1, type: 'tree_update', runId, nodes: [{ ...llm, status: 'completed', endedAt: end, output: { text: 'ok' } }] });
  port.post({ v: 1, type: 'run_result', runId, status: 'completed', messages: [{ id: `${runId}.m`, role: 'assistant', content: [{ type: 'text', text: 'ok' }] }] });
  port.post({ v: 1, type: 'tree_update', runId, nodes: [{ ...root, status: 'completed', endedAt: end }] });
  port.post({ v: 1, type: 'done', runId });
  // Exit only once every frame is on the wire (the 2 MiB one takes a while under load).
  void flushLink().then(() => process.exit(0));
});
