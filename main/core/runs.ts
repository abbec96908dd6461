/**
 * The run lifecycle in the host: start a runner for an open thread, and when the run closes
 * apply its result to the thread as one patch (plus its run ref) and write its run file. A run
 * that closed without its own result (its runner was killed) and a run the journal repair
 * closed at start (the host died) put on the thread what their tree holds (journal/salvage.ts),
 * the latter when its thread is next opened.
 */
import { randomUUID } from 'node:crypto';
import writeFileAtomic from 'write-file-atomic';
import type { RunRef, RunMode } from '../../shared/thread/schema';
import { runUsage } from '../../shared/protocol/usage';
import type { RunSpec } from '../../shared/protocol/runner';
import type { RunRecord } from '../../shared/protocol/host-api';
import type { RunResult } from '../../shared/protocol/envelopes';
import type { StreamBridge } from './bridge/stream-bridge';
import type { LiveRun } from './bridge/live-run';
import { unexpectedStop, type RunSupervisor, type RunExit } from './supervisor/run-supervisor';
import type { ThreadStore } from './store/thread-store';
import { runFile, type RunJournal } from './journal/journal';
import { readRun } from './journal/run-files';
import { salvageResult } from './journal/salvage';
import { runStopOf } from '../../shared/protocol/stop-reason';
import { runDurationMs } from '../../shared/protocol/duration';
import { providersForRun, type KeyCodec } from './settings/providers';
import { HostError } from './errors';
import { runProblem } from '../../shared/thread/tool-calls';
import { renderForRun } from './templates';
import { runSkills, type SkillRoot } from './skills/discover';
import { timeTravelStart } from './time-travel';
import { turnOfRun } from './run-turns';
import { DEFAULT_MAX_TURNS } from '../../shared/thread/defaults';

export interface StartRunParams {
  threadId: string;
  mode: RunMode;
  toolCallIds?: string[];
  maxTurns?: number;
  /** Apply the run's result to the thread (default true; the CLI's --dry-run says false). */
  apply?: boolean;
  /** Use this scenario instead of the thread's picked one ('' = none). */
  scenario?: string;
  /** Render every place anew instead of reusing the previous run's frozen renders. */
  fresh?: boolean;
  /** Time travel: re-run run `runId` of the thread from its model call `fromCall` (1-based). */
  fromRun?: { runId: string; fromCall: number };
  /**
   * Run in a reusable runner process of this pool (RunSupervisor's `pool` option; an evaluation
   * batch's cases) instead of a fresh one. Not part of the host API: set by the host core only.
   */
  pool?: string;
  /**
   * Receives the run's record when it closes, instead of a journal and a run file in the home
   * (RunJournal.detach; an evaluation batch's case). Set by the host core only.
   */
  onRecord?: (record: RunRecord) => void;
}

/** What {@link runRefOf} reads of a run: a run file, or a live run's `record()`. */
export type RunRefSource = Pick<RunRecord, 'runId' | 'startedAt' | 'endedAt' | 'status' | 'mode' | 'nodes' | 'scenario' | 'fromRun' | 'turnOf'>;

/** A run's light preview: the start of the last LLM text it produced. */
function preview(run: RunRefSource): string | undefined {
  const nodes = run.nodes.filter((n) => n.kind === 'llm');
  for (let i = nodes.length - 1; i >= 0; i--) {
    const text = (nodes[i].output as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && text.trim()) return text.trim().slice(0, 160);
  }
  return undefined;
}

/** The thread's light reference to a run (a closed one's, or a live one's so far). */
export function runRefOf(run: RunRefSource): RunRef {
  // The run's own clock (its root node), so history and the execution tree show one duration;
  // the host's open/close times also count process start-up and exit.
  const root = run.nodes.find((n) => n.kind === 'run');
  const ref: RunRef = { id: run.runId, startedAt: root?.startedAt ?? run.startedAt, status: run.status, mode: run.mode };
  const endedAt = root?.endedAt ?? run.endedAt;
  if (endedAt !== undefined) ref.endedAt = endedAt;
  const durationMs = runDurationMs(run);
  if (endedAt !== undefined && durationMs !== undefined) ref.durationMs = durationMs;
  const p = preview(run);
  if (p) ref.preview = p;
  const u = runUsage(run.nodes);
  if (u) ref.usage = u;
  const stopped = runStopOf(root?.attrs);
  if (stopped) ref.stopped = stopped;
  if (run.scenario) ref.scenario = run.scenario;
  if (run.fromRun) ref.from = { runId: run.fromRun.runId, call: run.fromRun.fromCall };
  if (run.turnOf) ref.turn = run.turnOf;
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
  /** The folders searched for the thread's enabled skills (none searched when absent). */
  skillRoots?: SkillRoot[];
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** Starts runs and settles them when they close. */
export class RunController {
  /** Runs the journal repair closed whose result is not on their thread yet, by thread id. */
  private readonly pending = new Map<string, Set<string>>();

  constructor(private readonly deps: RunControllerDeps) {}

  /** Start a run of an open thread. Throws `thread_running` when one of its runs runs. */
  async start(p: StartRunParams): Promise<{ runId: string }> {
    const { threads, bridge } = this.deps;
    const { thread } = threads.get(p.threadId);
    if (!['step', 'react', 'tool'].includes(p.mode)) throw new HostError('bad_request', `mode must be step, react or tool, not ${JSON.stringify(p.mode)}`);
    if (bridge.liveRuns(p.threadId).length) throw new HostError('thread_running', `thread ${p.threadId} already has a run running`);
    const from = p.fromRun ? await timeTravelStart(this.deps.home, thread, p.mode, p.fromRun) : undefined;
    const problem = runProblem(from?.thread ?? thread, p.mode, p.toolCallIds);
    if (problem) throw new HostError(problem.code, problem.message);
    // Templates first: an error stops the run before a runner starts or a model is called.
    // A tool step sends nothing to a model: its places are not rendered (nor frozen).
    const skills = await runSkills(this.deps.skillRoots ?? [], thread.settings?.skills ?? []);
    const rendered = p.mode === 'tool' ? undefined : await renderForRun(from?.thread ?? thread, { home: this.deps.home, workspaceDir: this.deps.workspaceDir, scenario: p.scenario, fresh: p.fresh, skills });
    const providers = await providersForRun(this.deps.home, thread.model.provider, this.deps.keys);
    // A tool run, or a model run answering tool results, belongs to the turn that asked for them.
    const turnOf = from ? undefined : await turnOfRun(this.deps.home, thread, p.mode, p.toolCallIds);
    if (bridge.liveRuns(p.threadId).length) throw new HostError('thread_running', `thread ${p.threadId} already has a run running`);
    const runId = randomUUID();
    if (p.onRecord) this.deps.journal.detach(runId, p.onRecord);
    const spec: RunSpec = {
      runId,
      threadId: p.threadId,
      thread: rendered?.thread ?? from?.thread ?? thread,
      mode: p.mode,
      providers,
      home: this.deps.home,
      workspaceDir: this.deps.workspaceDir,
      mcp: this.deps.mcp,
    };
    if (p.maxTurns !== undefined) spec.maxTurns = p.maxTurns;
    if (p.toolCallIds) spec.toolCallIds = p.toolCallIds;
    if (skills.length) spec.skills = skills;
    if (p.fromRun) {
      spec.fromRun = p.fromRun;
      // The played-back calls are turns too: the cap leaves call `fromCall` at least one live turn.
      if (p.mode === 'react') spec.maxTurns = Math.max(spec.maxTurns ?? thread.settings?.maxTurns ?? DEFAULT_MAX_TURNS, p.fromRun.fromCall);
    }
    bridge.openRun({
      runId,
      threadId: p.threadId,
      mode: p.mode,
      baseMessageIds: (from?.thread ?? thread).context.messages.map((m) => m.id),
      dryRun: p.apply === false,
      ...(rendered && Object.keys(rendered.renders.places).length ? { renders: rendered.renders } : {}),
      ...(rendered?.scenario ? { scenario: rendered.scenario } : {}),
      ...(p.fromRun ? { fromRun: p.fromRun } : {}),
      ...(turnOf ? { turnOf } : {}),
    });
    // Answered once the run is in its journal, so a host killed after the answer still lists it
    // (interrupted). Written before the runner starts: nothing of the run can end meanwhile.
    await this.deps.journal.opened(runId);
    try {
      this.deps.supervisor().start(spec, p.pool === undefined ? {} : { pool: p.pool });
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
    const tail = exit.stderrTail.trim().split('\n').slice(-5).join('\n');
    const reason = exit.cancelRequested ? 'Cancelled.' : `${unexpectedStop(exit)}${tail ? `\n${tail}` : ''}`;
    if (!exit.cancelRequested) this.deps.log('warn', `run ${runId}: ${reason}`);
    void this.deps.bridge.closeRun(runId, { status: exit.cancelRequested ? 'cancelled' : 'interrupted', reason });
  }

  /**
   * The bridge closed a run: result and run ref onto the thread (one patch), then the final run
   * file. A run without its own result (its runner was killed before sending it) puts on the
   * thread what its tree holds, its last reply partial and marked interrupted.
   */
  async closed(run: LiveRun): Promise<void> {
    const { threads, journal } = this.deps;
    if (!run.result) {
      const salvaged = salvageResult(run.record(), 'its runner process stopped');
      if (salvaged.messages.length || salvaged.toolOutputs.length) {
        run.result = { v: 1, type: 'run_result', runId: run.runId, status: run.status, ...salvaged };
      }
    }
    const record = run.record();
    if (!run.dryRun && threads.has(run.threadId)) {
      this.applyToThread(run.threadId, run.runId, run.result, runRefOf(record), record);
      // The thread file first, then the final run file: a host that dies between the two leaves
      // a run file the next start repairs, whose result the thread then already has (the ref
      // says so). The other order could lose the result from the thread file.
      await threads.flush(run.threadId);
    }
    await journal.close(run.runId, record);
  }

  /** One patch with the run's result and ref; when the result does not apply, the ref alone. */
  private applyToThread(threadId: string, runId: string, result: Pick<RunResult, 'messages' | 'toolOutputs'> | undefined, ref: RunRef, rec: Pick<RunRecord, 'fromRun' | 'baseMessageIds'>): void {
    const { threads } = this.deps;
    try {
      threads.applyRunResult(threadId, result, ref, rec.fromRun ? rec.baseMessageIds : undefined);
    } catch (err) {
      this.deps.log('error', `run ${runId}: its result could not be applied (${(err as Error).message}); keeping only the run ref`);
      try {
        threads.applyRunResult(threadId, undefined, ref);
      } catch (err2) {
        this.deps.log('error', `run ${runId}: run ref not recorded: ${(err2 as Error).message}`);
      }
    }
  }

  /** Runs the journal repair closed at start whose result still has to go onto their thread. */
  notePending(runs: { threadId: string; runId: string }[]): void {
    for (const { threadId, runId } of runs) {
      let set = this.pending.get(threadId);
      if (!set) this.pending.set(threadId, (set = new Set()));
      set.add(runId);
    }
  }

  /**
   * The thread was just opened: put each pending repaired run's result and ref on it (one patch
   * per run, on the current version, so edits made to the file meanwhile stay), then drop the
   * run file's `resultPending`. A run whose ref the thread already has is not applied again.
   */
  async settlePending(threadId: string): Promise<void> {
    const runIds = this.pending.get(threadId);
    if (!runIds) return;
    this.pending.delete(threadId);
    const { threads, home } = this.deps;
    for (const runId of runIds) {
      let rec: RunRecord;
      try {
        rec = await readRun(home, threadId, runId);
      } catch (err) {
        // Deleted meanwhile (run.delete): nothing to put on the thread.
        if ((err as HostError).code !== 'not_found') this.deps.log('warn', `run ${runId}: its result was not put on thread ${threadId}: ${(err as Error).message}`);
        continue;
      }
      if (!rec.resultPending) continue;
      if (!threads.has(threadId)) {
        this.notePending([{ threadId, runId }]); // released meanwhile: the next open puts it on
        continue;
      }
      if (!threads.get(threadId).thread.runRefs.some((r) => r.id === runId)) {
        const result = { messages: (rec.messages ?? []) as RunResult['messages'], toolOutputs: (rec.toolOutputs ?? []) as RunResult['toolOutputs'] };
        this.applyToThread(threadId, runId, result, runRefOf(rec), rec);
      }
      delete rec.resultPending;
      await writeFileAtomic(runFile(home, threadId, runId), JSON.stringify(rec)).catch((err: unknown) =>
        this.deps.log('error', `run ${runId}: could not update its run file: ${(err as Error).message}`),
      );
    }
  }
}
