/**
 * agent-runner entry: one process per run (docs/architecture.md#processes-and-state). Waits for `start`, runs, posts
 * envelopes on the `run` port, and exits when the run has ended (a pooled process, RUNNER_POOLED_ENV,
 * instead waits for its next `start`), or at once, cancelling the
 * run, when the host is gone (shared/process-port.node.ts, `onHostGone`). Under Electron it is started
 * with utilityProcess.fork, under Node with child_process.fork; see shared/process-port.node.ts.
 * Every message from the host is checked against the contract first (host-messages.ts).
 */
import { RUNNER_POOLED_ENV, type HostToRunner, type RunnerToHost, type RunSpec } from '../shared/protocol/runner';
import { channelPort, flushLink, onHostGone } from '../shared/process-port.node.js';
import { startRun, type RunHandle } from './run';
import { createRunnerProviderFactory } from './providers/factory';
import { createMcpExecutors } from './tools/mcp-executors';
import { checkHostMessage, startRunId } from './host-messages';

const port = channelPort<unknown, RunnerToHost>('run');
/** Pooled (RunSupervisor's `pool` option): after a run, wait for the next `start` instead of exiting. */
const pooled = process.env[RUNNER_POOLED_ENV] === '1';
let handle: RunHandle | undefined;
/** The run this process runs, once `start` arrived. */
let runId: string | undefined;
/** A pooled process's next run, when its `start` came before the current run had wound down. */
let nextSpec: RunSpec | undefined;

/** A diagnostic the host sees: on stderr (kept with the exit) and, under a known run, as a `log`. */
function report(level: 'warn' | 'error', message: string, under = runId): void {
  process.stderr.write(`stepwise runner: ${message}\n`);
  if (under) port.post({ v: 1, type: 'log', runId: under, level, message });
}

/** Runs `spec`; when it is done, exits (or, pooled, clears its state and takes the next run). */
function begin(spec: RunSpec): void {
  runId = spec.runId;
  const mcp = createMcpExecutors(spec);
  const h = startRun(spec, (m) => port.post(m), {
    providerFor: createRunnerProviderFactory(spec.home),
    executors: mcp.executors,
    emitter: { drained: flushLink },
  });
  handle = h;
  void h.done.then(async () => {
    mcp.dispose();
    if (!pooled) {
      await flushLink();
      process.exit(0);
    }
    handle = undefined;
    runId = undefined;
    const next = nextSpec;
    nextSpec = undefined;
    if (next) begin(next);
  });
}

port.onMessage((raw) => {
  const checked = checkHostMessage(raw);
  if (!checked.ok) {
    if (checked.type === 'start' && !handle) {
      // Nothing can run from a malformed spec: say why, and exit so that the run ends failed.
      report('error', `the host's start message is malformed, so the run cannot start: ${checked.problem}`, startRunId(raw));
      void flushLink().then(() => process.exit(1));
      return;
    }
    report('warn', `ignored a malformed ${checked.type ? `${checked.type} ` : ''}message from the host: ${checked.problem}`);
    return;
  }
  const msg: HostToRunner = checked.msg;
  if (msg.type === 'start') {
    if (!handle) begin(msg.spec);
    else if (pooled && !nextSpec && msg.spec.runId !== runId) nextSpec = msg.spec;
    else report('warn', `ignored a second start (run ${msg.spec.runId}) while run ${runId} runs`);
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
  report('error', `Uncaught in runner: ${err.stack ?? err.message}`);
});
process.on('unhandledRejection', (err) => {
  report('error', `Unhandled rejection in runner: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
});
