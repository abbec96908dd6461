/**
 * Bytes the host writes per turn of a long ReAct run, and bytes a tool's log costs per line.
 *
 * Journal: the real agent-runner (out/main/agent-runner.js) runs a ReAct loop of `turns` turns
 * on the scripted model (a built-in tool each turn), through the real RunSupervisor and
 * StreamBridge, with the bridge's changes going to a run journal as in the host core. Bytes
 * written are the host process's `wchar` (/proc/self/io: everything it wrote, files and pipes),
 * read at the start of each turn (the turn's LLM node opening); the run's final run file,
 * written once at close, is outside the windows. Baseline: the journal as it was before
 * issue #15, kept here — the whole `LiveRun.record()` rewritten atomically at most every 250 ms.
 * Also the bytes of each `llm_record` the runner posts, against the same record with its request
 * whole (how runners posted it before their record chain).
 *
 * Tool log: a tool node logging one line per flush window (each line its own frame), through the
 * runner's RunTree and RunEmitter; bytes of the frames posted per line. Baseline: today's path
 * before #15, the whole log so far (up to 500 lines) set on the node with every line.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { NodeSpawner } from '../main/core/process/node-spawner';
import { RunSupervisor } from '../main/core/supervisor/run-supervisor';
import { StreamBridge } from '../main/core/bridge/stream-bridge';
import type { LiveRun } from '../main/core/bridge/live-run';
import { RunJournal, runFile } from '../main/core/journal/journal';
import { RunEmitter } from '../agent-runner/emit/emitter';
import { RunTree } from '../agent-runner/loop/tree';
import type { LlmRecord, RunnerToHost, RunSpec } from '../shared/protocol/runner';
import { RequestReader, type StoredRequest } from '../shared/protocol/request-delta';
import { jsonSize } from '../shared/protocol/frame-limits';
import type { RunRecord } from '../shared/protocol/host-api';
import type { Tool } from '../shared/thread/tools';
import { reactThread } from '../tests/support/threads';

/** Bytes this process has written so far (Linux /proc/self/io `wchar`). */
function written(): number {
  let io: string;
  try {
    io = readFileSync('/proc/self/io', 'utf8');
  } catch {
    throw new Error('the journal benchmark reads /proc/self/io (Linux) to count the bytes the host writes');
  }
  return Number(/wchar: (\d+)/.exec(io)![1]);
}

/** What a journal does for the bridge: told of every change, closed once. */
interface Journal {
  changed(run: LiveRun, msg?: RunnerToHost): void;
  close(runId: string, record: RunRecord): Promise<void>;
}

/** The run journal before #15 (the baseline): the whole record rewritten at most every 250 ms. */
class WholeRecordCheckpoints implements Journal {
  private readonly pending = new Map<string, { timer?: NodeJS.Timeout; last: number; chain: Promise<void>; run: LiveRun }>();
  constructor(private readonly home: string) {}
  changed(run: LiveRun): void {
    let p = this.pending.get(run.runId);
    if (!p) this.pending.set(run.runId, (p = { last: 0, chain: Promise.resolve(), run }));
    if (p.timer) return;
    const entry = p;
    p.timer = setTimeout(() => {
      entry.timer = undefined;
      entry.last = Date.now();
      const rec = entry.run.record();
      const text = JSON.stringify(rec);
      entry.chain = entry.chain.then(async () => {
        const file = runFile(this.home, rec.threadId, rec.runId);
        mkdirSync(path.dirname(file), { recursive: true });
        await writeFileAtomic(file, text, { fsync: false });
      });
    }, Math.max(0, p.last + 250 - Date.now()));
  }
  async close(runId: string, record: RunRecord): Promise<void> {
    const p = this.pending.get(runId);
    if (p?.timer) clearTimeout(p.timer);
    await p?.chain;
    await writeFileAtomic(runFile(this.home, record.threadId, runId), JSON.stringify(record), { fsync: true });
    this.pending.delete(runId);
  }
}

/** Bytes written at the start of each turn of one ReAct run, and how long it took. */
export interface JournalRun {
  /** `at[i]`: bytes written so far when turn i + 1 started. */
  at: number[];
  seconds: number;
  /** JSON bytes of each model call's `llm_record` as the runner posted it. */
  recordBytes: number[];
  /** JSON bytes of the same record with its request whole (as runners posted it before #15's record chain). */
  wholeRecordBytes: number[];
}

/** One ReAct run of `turns` turns through supervisor → bridge → `kind` journal. */
export async function journalRun(kind: 'append' | 'whole', turns: number, runner: string, tokensPerSecond: number): Promise<JournalRun> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-journal-'));
  const journal: Journal = kind === 'append' ? new RunJournal(home) : new WholeRecordCheckpoints(home);
  let closed!: () => void;
  const done = new Promise<void>((r) => (closed = r));
  const bridge = new StreamBridge({
    log: () => {},
    onRunChanged: (run, msg) => journal.changed(run, msg),
    onRunClosed: async (run) => {
      await journal.close(run.runId, run.record());
      closed();
    },
  });
  const at: number[] = [];
  const seen = new Set<string>();
  bridge
    .addClient(
      (push) => {
        if (push.type !== 'tree_update') return;
        for (const n of push.nodes) {
          if (n.kind !== 'llm' || seen.has(n.id)) continue;
          seen.add(n.id);
          at.push(written());
        }
      },
      { unbounded: true },
    )
    .subscribe();
  const records: StoredRequest[] = [];
  const reader = new RequestReader(records);
  const recordBytes: number[] = [];
  const wholeRecordBytes: number[] = [];
  const supervisor = new RunSupervisor({
    spawner: new NodeSpawner({ stdout: 'pipe' }),
    entry: runner,
    listener: {
      message: (id, msg) => {
        if (kind === 'append' && (msg as RunnerToHost).type === 'llm_record') {
          const rec = msg as LlmRecord;
          records.push(rec);
          recordBytes.push(jsonSize(rec));
          wholeRecordBytes.push(jsonSize({ ...rec, requestBase: undefined, request: reader.at(records.length - 1) }));
        }
        bridge.handle(id, msg);
      },
      exit: (id, exit) => void bridge.closeRun(id, { status: 'interrupted', reason: exit.abnormal ? `runner exited: ${exit.stderrTail}` : undefined }),
    },
  });
  const noop: Tool = { type: 'builtin', name: 'noop', description: 'Does nothing (an unknown built-in: its result is an error, and the loop goes on).' };
  const thread = reactThread(turns, noop, (i) => ({ turn: i }), { tokensPerSecond });
  const runId = `bench-journal-${kind}`;
  const spec: RunSpec = { runId, threadId: thread.id, thread, mode: 'react', maxTurns: turns, providers: [], home, workspaceDir: home };
  bridge.openRun({ runId, threadId: thread.id, mode: 'react' });
  const t0 = performance.now();
  const proc = supervisor.start(spec);
  await done;
  await proc.exited;
  rmSync(home, { recursive: true, force: true });
  return { at, seconds: (performance.now() - t0) / 1000, recordBytes, wholeRecordBytes };
}

/** Mean bytes per turn over turns [from, to) (1-based turn numbers). */
export function bytesPerTurn(r: JournalRun, from: number, to: number): number {
  return (r.at[to - 1] - r.at[from - 1]) / (to - from);
}

/** Bytes of the frames posted for each of `lines` log lines of one tool node. */
export function toolLogBytes(kind: 'line' | 'whole', lines: number): number[] {
  let bytes = 0;
  const emitter = new RunEmitter('bench-log', (m) => (bytes += JSON.stringify(m).length));
  const tree = new RunTree('bench-log', emitter);
  const node = tree.open({ kind: 'tool', name: 'chatty', input: { q: 'x' } });
  const logs: { level: string; data: unknown; t: number }[] = [];
  const per: number[] = [];
  for (let i = 0; i < lines; i++) {
    const before = bytes;
    const line = { level: 'info', data: `fetched page ${i + 1} of ${lines}`, t: 1_700_000_000_000 + i };
    if (kind === 'line') {
      tree.log(node, line);
    } else {
      if (logs.length >= 500) logs.shift();
      logs.push(line);
      tree.update(node, { attrs: { logs: [...logs] } });
    }
    emitter.flush(); // lines a flush window apart, as a tool's log usually comes
    per.push(bytes - before);
  }
  emitter.close();
  return per;
}
