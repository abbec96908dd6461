/**
 * agent-runner entry: one process per run (docs/architecture.md#processes-and-state). Waits for `start`, runs, posts
 * envelopes on the `run` port, and exits when the run has ended, or at once, cancelling the
 * run, when the host is gone (shared/process-port.node.ts, `onHostGone`). Under Electron it is started
 * with utilityProcess.fork, under Node with child_process.fork; see shared/process-port.node.ts.
 */
import type { HostToRunner, RunnerToHost } from '../shared/protocol/runner';
import { channelPort, flushLink, onHostGone } from '../shared/process-port.node.js';
import { startRun, type RunHandle } from './run';
import { createRunnerProviderFactory } from './providers/factory';
import { createMcpExecutors } from './tools/mcp-executors';

const port = channelPort<HostToRunner, RunnerToHost>('run');
let handle: RunHandle | undefined;

port.onMessage((msg) => {
  if (msg.type === 'start' && !handle) {
    const spec = msg.spec;
    handle = startRun(spec, (m) => port.post(m), {
      providerFor: createRunnerProviderFactory(spec.home),
      executors: createMcpExecutors(spec),
    });
    void handle.done.then(async () => {
      await flushLink();
      process.exit(0);
    });
  } else if (msg.type === 'cancel') {
    handle?.cancel(msg.reason);
  } else if (msg.type === 'input') {
    handle?.input(msg.nodeId, msg.value);
  }
});

/** After the host is gone, how long a cancelled run may take to wind down before the process exits (ms). */
const HOST_GONE_EXIT_MS = 500;

// The host is gone (killed, crashed): nobody will see this run's output or cancel it, and
// with a real provider it would keep spending tokens. Cancel it (its provider request and
// stream are aborted, tool calls cancelled), then exit without waiting for it to finish.
onHostGone(() => {
  if (!handle) process.exit(0);
  handle.cancel('the host is gone');
  setTimeout(() => process.exit(0), HOST_GONE_EXIT_MS).unref();
  void handle.done.finally(() => process.exit(0));
});

process.on('uncaughtException', (err) => {
  port.post({ v: 1, type: 'log', runId: handle ? 'run' : 'unknown', level: 'error', message: `Uncaught in runner: ${err.stack ?? err.message}` });
});
process.on('unhandledRejection', (err) => {
  port.post({ v: 1, type: 'log', runId: handle ? 'run' : 'unknown', level: 'error', message: `Unhandled rejection in runner: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}` });
});
