/**
 * The run lifecycle in the host: start a runner for an open thread, and when the run closes
 * apply its result to the thread as one patch (plus its run ref) and write its run file.
 */
import { randomUUID } from 'node:crypto';
import type { RunRef, RunMode } from '../../shared/thread/schema';
import type { Usage } from '../../shared/protocol/nodes';
import type { RunSpec } from '../../shared/protocol/runner';
import type { StreamBridge } from './bridge/stream-bridge';
import type { LiveRun } from './bridge/live-run';
import type { RunSupervisor, RunExit } from './supervisor/run-supervisor';
import type { ThreadStore } from './store/thread-store';
import type { RunJournal } from './journal/journal';
import { providersForRun, type KeyCodec } from './settings/providers';
import { HostError } from './errors';
import { runProblem } from '../../shared/thread/tool-calls';

export interface StartRunParams {
  threadId: string;
  mode: RunMode;
  toolCallIds?: string[];
  maxTurns?: number;
  /** Apply the run's result to the thread (default true; the CLI's --dry-run says false). */
  apply?: boolean;
}

/** A run's light preview: the start of the last LLM text it produced. */
function preview(run: LiveRun): string | undefined {
  const nodes = run.nodes().filter((n) => n.kind === 'llm');
  for (let i = nodes.length - 1; i >= 0; i--) {
    const text = (nodes[i].output as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && text.trim()) return text.trim().slice(0, 160);
  }
  return undefined;
}

function totalUsage(run: LiveRun): Usage | undefined {
  let u: Usage | undefined;
  for (const n of run.nodes()) {
    if (!n.usage || n.kind === 'run') continue;
    u ??= { inputTokens: 0, outputTokens: 0 };
    u.inputTokens += n.usage.inputTokens;
    u.outputTokens += n.usage.outputTokens;
  }
  return u;
}

/** The thread's light reference to a closed run. */
export function runRefOf(run: LiveRun): RunRef {
  // The run's own clock (its root node), so history and the execution tree show one duration;
  // the host's open/close times also count process start-up and exit.
  const root = run.nodes().find((n) => n.kind === 'run');
  const ref: RunRef = { id: run.runId, startedAt: root?.startedAt ?? run.startedAt, status: run.status, mode: run.mode };
  const endedAt = root?.endedAt ?? run.endedAt;
  if (endedAt !== undefined) ref.endedAt = endedAt;
  const p = preview(run);
  if (p) ref.preview = p;
  const u = totalUsage(run);
  if (u) ref.usage = u;
  return ref;
}

export interface RunControllerDeps {
  home: string;
  workspaceDir: string;
  threads: ThreadStore;
  bridge: StreamBridge;
  supervisor: () => RunSupervisor;
  journal: RunJournal;
  mcp: boolean;
  /** Opens API keys encrypted in providers.json. */
  keys?: KeyCodec;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** Starts runs and settles them when they close. */
export class RunController {
  /** Runs whose result must not be applied (dry runs). */
  private readonly noApply = new Set<string>();

  constructor(private readonly deps: RunControllerDeps) {}

  /** Start a run of an open thread. Throws `thread_running` when one of its runs runs. */
  async start(p: StartRunParams): Promise<{ runId: string }> {
    const { threads, bridge } = this.deps;
    const { thread } = threads.get(p.threadId);
    if (!['step', 'react', 'tool'].includes(p.mode)) throw new HostError('bad_request', `mode must be step, react or tool, not ${JSON.stringify(p.mode)}`);
    if (bridge.liveRuns(p.threadId).length) throw new HostError('thread_running', `thread ${p.threadId} already has a run running`);
    const problem = runProblem(thread, p.mode, p.toolCallIds);
    if (problem) throw new HostError(problem.code, problem.message);
    const providers = await providersForRun(this.deps.home, thread.model.provider, this.deps.keys);
    if (bridge.liveRuns(p.threadId).length) throw new HostError('thread_running', `thread ${p.threadId} already has a run running`);
    const runId = randomUUID();
    const spec: RunSpec = {
      runId,
      threadId: p.threadId,
      thread,
      mode: p.mode,
      providers,
      home: this.deps.home,
      workspaceDir: this.deps.workspaceDir,
      mcp: this.deps.mcp,
    };
    if (p.maxTurns !== undefined) spec.maxTurns = p.maxTurns;
    if (p.toolCallIds) spec.toolCallIds = p.toolCallIds;
    if (p.apply === false) this.noApply.add(runId);
    bridge.openRun({ runId, threadId: p.threadId, mode: p.mode, baseMessageIds: thread.context.messages.map((m) => m.id) });
    try {
      this.deps.supervisor().start(spec);
    } catch (err) {
      await bridge.closeRun(runId, { status: 'error', reason: `could not start the runner: ${(err as Error).message}` });
      throw new HostError('runner_failed', `could not start the runner: ${(err as Error).message}`);
    }
    return { runId };
  }

  /** The runner process ended: close the run (interrupted on a crash, cancelled after a cancel). */
  exited(runId: string, exit: RunExit): void {
    if (!exit.abnormal) {
      void this.deps.bridge.closeRun(runId, { status: 'interrupted', keepAwaiting: true, reason: 'the runner exited with nodes still open' });
      return;
    }
    const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
    const tail = exit.stderrTail.trim().split('\n').slice(-5).join('\n');
    const reason = exit.cancelRequested
      ? 'Cancelled.'
      : `The runner process stopped unexpectedly (${how}).${tail ? `\n${tail}` : ''}`;
    if (!exit.cancelRequested) this.deps.log('warn', `run ${runId}: ${reason}`);
    void this.deps.bridge.closeRun(runId, { status: exit.cancelRequested ? 'cancelled' : 'interrupted', reason });
  }

  /** The bridge closed a run: result and run ref onto the thread (one patch), then the final run file. */
  async closed(run: LiveRun): Promise<void> {
    const { threads, journal } = this.deps;
    const apply = !this.noApply.delete(run.runId);
    if (apply && threads.has(run.threadId)) {
      const ref = runRefOf(run);
      try {
        threads.applyRunResult(run.threadId, run.result, ref);
      } catch (err) {
        this.deps.log('error', `run ${run.runId}: its result could not be applied (${(err as Error).message}); keeping only the run ref`);
        try {
          threads.applyRunResult(run.threadId, undefined, ref);
        } catch (err2) {
          this.deps.log('error', `run ${run.runId}: run ref not recorded: ${(err2 as Error).message}`);
        }
      }
    }
    await journal.close(run.runId, run.record());
  }
}
