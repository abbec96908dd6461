/**
 * A hung runner for the supervisor's cancel test: a real child process that opens a run,
 * streams one delta, then ignores `cancel` (and SIGTERM) and never ends on its own.
 */
import { channelPort } from '../../shared/process-port.node.js';
import type { HostToRunner } from '../../shared/protocol/runner';

process.on('SIGTERM', () => {}); // a hang that a polite signal does not end either
const port = channelPort<HostToRunner, unknown>('run');
port.onMessage((msg) => {
  if (msg.type !== 'start') return; // `cancel` is ignored
  const runId = msg.spec.runId;
  const now = Date.now();
  const root = { id: `${runId}.root`, runId, kind: 'run', name: 'step', status: 'running', startedAt: now };
  const llm = { id: `${runId}.llm`, runId, parentId: root.id, kind: 'llm', name: 'stuck', status: 'running', startedAt: now };
  port.post({ v: 1, type: 'tree_update', runId, nodes: [root, llm] });
  port.post({ v: 1, type: 'llm_delta', runId, nodeId: llm.id, channel: 'text', index: 0, delta: 'thinking forever', seq: 1 });
});
setInterval(() => {}, 1000);
