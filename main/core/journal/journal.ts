/**
 * The run journal (docs/architecture.md#run-journal): each live run's changes are appended to
 * its journal, `$home/runs/<threadId>/<runId>.jsonl` (journal-log.ts), at most every ~250 ms;
 * a checkpoint writes what changed since the last one (new and changed nodes, the text streamed
 * meanwhile, records), so the bytes written per turn of a long run stay the same at turn 10
 * and at turn 1,000. When the journal has grown to twice what the run holds, it is compacted
 * (rewritten as one `record` line). At close the run file `<runId>.json` is written atomically
 * with the whole run, then the journal is removed. run-files.ts reads both and repairs runs a
 * host left open.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { isTerminal, type ExecNode } from '../../../shared/protocol/nodes';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { RunnerToHost } from '../../../shared/protocol/runner';
import type { DeltaChannel } from '../../../shared/protocol/envelopes';
import { HostError } from '../errors';
import type { LiveRun } from '../bridge/live-run';
import type { JournalLine } from './journal-log';

const SAFE_ID = /^[A-Za-z0-9._-]{1,200}$/;

/** Whether `id` may name a thread's or a run's file: 1–200 of A–Z a–z 0–9 . _ -, not `.` or `..`. */
export function isSafeId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID.test(id) && id !== '.' && id !== '..';
}

function safeId(id: string, what: string): string {
  if (!isSafeId(id)) throw new HostError('bad_request', `${what} ${JSON.stringify(id)} is not a valid id`);
  return id;
}

/** Folder of a thread's runs. */
export function runsDir(home: string, threadId: string): string {
  return path.join(home, 'runs', safeId(threadId, 'thread id'));
}

/** Path of one run file. */
export function runFile(home: string, threadId: string, runId: string): string {
  return path.join(runsDir(home, threadId), `${safeId(runId, 'run id')}.json`);
}

/** Path of one live run's journal (journal-log.ts). */
export function journalFile(home: string, threadId: string, runId: string): string {
  return path.join(runsDir(home, threadId), `${safeId(runId, 'run id')}.jsonl`);
}

/** Default of {@link JournalOptions.compactBytes}: 4 MiB. */
const MIN_COMPACT = 4 * 1024 * 1024;

export interface JournalOptions {
  /** Checkpoints of one run at most this often, ms. Default 250. */
  intervalMs?: number;
  /** A journal is compacted only past this size and past twice its size after its last compaction (bytes, approximately). Default 4 MiB. */
  compactBytes?: number;
  log?: (message: string) => void;
}

/** How much of one node's streamed text is in the journal already, per channel. */
interface Written {
  text: number;
  thinking: number;
  args: Map<number, number>;
}

/** One live run's journal as the writer keeps it. */
interface Journal {
  run: LiveRun;
  /** The journal's first line. */
  start: JournalLine;
  file: string;
  /** Lines waiting for the next checkpoint. */
  lines: JournalLine[];
  /** Nodes that streamed since the last checkpoint. */
  streamed: Set<string>;
  written: Map<string, Written>;
  seenAt: number;
  /** Bytes in the file (approximately: UTF-16 code units). */
  bytes: number;
  /** Compact at the checkpoint that would take the file past this. */
  compactAt: number;
  timer?: NodeJS.Timeout;
  lastWrite: number;
  chain: Promise<void>;
  handle?: fs.FileHandle;
  /** A write failed: the next one starts on a new line, so a partial line stays alone. */
  broken: boolean;
  /** Settles once the first checkpoint (the run's `run` line) is written, or failed and was logged. */
  opened: Promise<void>;
}

/** Appends live runs' changes to their journals (throttled), and writes one run file at close. */
export class RunJournal {
  private readonly journals = new Map<string, Journal>();
  /** Runs whose record goes to a receiver at close instead of a journal and a run file. */
  private readonly detached = new Map<string, (record: RunRecord) => void>();

  constructor(
    private readonly home: string,
    private readonly opts: JournalOptions = {},
  ) {}

  /**
   * `run` changed: `msg` is the runner message the bridge just applied (none when the run just
   * opened). Kept for the next checkpoint, written within the interval (the first one at once).
   */
  changed(run: LiveRun, msg?: RunnerToHost): void {
    if (this.detached.has(run.runId)) return;
    let j = this.journals.get(run.runId);
    if (!j) {
      const info = { runId: run.runId, threadId: run.threadId, mode: run.mode, startedAt: run.startedAt, baseMessageIds: run.baseMessageIds, dryRun: run.dryRun || undefined, renders: run.renders, scenario: run.scenario, fromRun: run.fromRun, turnOf: run.turnOf };
      const file = journalFile(this.home, run.threadId, run.runId);
      const start: JournalLine = { k: 'run', info };
      j = { run, start, file, lines: [start], streamed: new Set(), written: new Map(), seenAt: 0, bytes: 0, compactAt: this.opts.compactBytes ?? MIN_COMPACT, lastWrite: 0, chain: Promise.resolve(), broken: false, opened: Promise.resolve() };
      this.journals.set(run.runId, j);
      // The first checkpoint at once, so the run is on disk when run.start answers (opened).
      if (!msg) {
        j.opened = this.checkpoint(j, false);
        return;
      }
    }
    if (msg?.type === 'llm_delta') j.streamed.add(msg.nodeId);
    else if (msg && (msg.type === 'tree_update' || msg.type === 'node_update' || msg.type === 'llm_record' || msg.type === 'run_result')) j.lines.push({ k: 'msg', msg });
    if (j.timer) return;
    const wait = Math.max(0, j.lastWrite + (this.opts.intervalMs ?? 250) - Date.now());
    const journal = j;
    j.timer = setTimeout(() => {
      journal.timer = undefined;
      void this.checkpoint(journal, false);
    }, wait);
  }

  /**
   * Resolves once run `runId`'s journal holds its first line, so a host killed after that
   * finds the run at its next start (marked interrupted); at once for a run with no journal.
   * A write that failed resolves too (it was logged; the run goes on without a journal).
   */
  opened(runId: string): Promise<void> {
    return this.journals.get(runId)?.opened ?? Promise.resolve();
  }

  /** What each node streamed since the last checkpoint, as `text` lines. */
  private streamedLines(j: Journal): JournalLine[] {
    const out: JournalLine[] = [];
    for (const nodeId of j.streamed) {
      const live = j.run.live(nodeId);
      if (!live || isTerminal(live.status)) {
        j.written.delete(nodeId); // its closing tree_update holds its output
        continue;
      }
      let w = j.written.get(nodeId);
      if (!w) j.written.set(nodeId, (w = { text: 0, thinking: 0, args: new Map() }));
      const add = (channel: DeltaChannel, index: number, all: string, from: number): number => {
        if (all.length <= from) return from;
        const call = channel === 'tool_args' ? j.run.toolCallOf(nodeId, index) : undefined;
        const line: JournalLine = { k: 'text', nodeId, channel, index, delta: all.slice(from) };
        if (call?.id) line.toolCallId = call.id;
        if (call?.name) line.toolName = call.name;
        out.push(line);
        return all.length;
      };
      w.text = add('text', 0, live.text, w.text);
      w.thinking = add('thinking', 0, live.thinking, w.thinking);
      for (const [k, raw] of Object.entries(live.toolArgs)) w.args.set(Number(k), add('tool_args', Number(k), raw, w.args.get(Number(k)) ?? 0));
    }
    j.streamed.clear();
    return out;
  }

  /** The fewest lines that replay to the run as it is now: its nodes, records, result, streamed text. */
  private compacted(j: Journal): JournalLine[] {
    const run = j.run;
    const out: JournalLine[] = [j.start];
    const nodes = run.nodes();
    if (nodes.length) out.push({ k: 'msg', msg: { v: 1, type: 'tree_update', runId: run.runId, nodes: nodes as [ExecNode, ...ExecNode[]] } });
    for (const rec of run.records) out.push({ k: 'msg', msg: { v: 1, type: 'llm_record', ...rec } });
    if (run.result) out.push({ k: 'msg', msg: run.result });
    j.written.clear();
    for (const n of nodes) j.streamed.add(n.id);
    // Appended one by one: spread into push, a line per streamed node overflowed the call stack
    // at ~100,000 nodes.
    for (const line of this.streamedLines(j)) out.push(line);
    out.push({ k: 'seen', at: (j.seenAt = run.lastEventAt) });
    return out;
  }

  /** Append what changed since the last checkpoint (or compact); `sync`: flushed to disk too. */
  private checkpoint(j: Journal, sync: boolean): Promise<void> {
    j.lastWrite = Date.now();
    const lines = j.lines.concat(this.streamedLines(j));
    j.lines = [];
    if (j.run.lastEventAt !== j.seenAt) lines.push({ k: 'seen', at: (j.seenAt = j.run.lastEventAt) });
    const encode = (ls: JournalLine[]) => ls.map((l) => JSON.stringify(l)).join('\n') + '\n';
    let text = encode(lines);
    const compact = j.bytes + text.length > j.compactAt;
    if (compact) {
      text = encode(this.compacted(j));
      j.compactAt = Math.max(this.opts.compactBytes ?? MIN_COMPACT, 2 * text.length);
    }
    j.chain = j.chain
      .then(async () => {
        if (compact) {
          await j.handle?.close();
          j.handle = undefined;
          await fs.mkdir(path.dirname(j.file), { recursive: true });
          await writeFileAtomic(j.file, text, { fsync: sync });
          j.bytes = text.length;
          return;
        }
        if (!j.handle) {
          await fs.mkdir(path.dirname(j.file), { recursive: true });
          j.handle = await fs.open(j.file, 'a');
        }
        const out = j.broken ? `\n${text}` : text;
        j.broken = true;
        await j.handle.write(out);
        j.broken = false;
        j.bytes += out.length;
        if (sync) await j.handle.datasync();
      })
      .catch((err: unknown) => this.opts.log?.(`journal: could not write run ${j.run.runId}: ${(err as Error).message}`));
    return j.chain;
  }

  /**
   * Final write of a closed run: its run file, atomically and on disk, then its journal goes.
   * Resolves when the run file is on disk.
   */
  async close(runId: string, record: RunRecord): Promise<void> {
    const receive = this.detached.get(runId);
    if (receive) {
      this.detached.delete(runId);
      receive(record);
      return;
    }
    const j = this.journals.get(runId);
    this.journals.delete(runId);
    if (j?.timer) clearTimeout(j.timer);
    await j?.chain;
    await j?.handle?.close().catch(() => {});
    const file = runFile(this.home, record.threadId, record.runId);
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, JSON.stringify(record), { fsync: true });
    } catch (err) {
      this.opts.log?.(`journal: could not write run ${runId}: ${(err as Error).message}`);
      return; // the journal stays: the next start repairs the run from it
    }
    await fs.rm(journalFile(this.home, record.threadId, record.runId), { force: true }).catch(() => {});
  }

  /**
   * Run `runId` (not started yet) has no journal and no run file: at close its record goes to
   * `receive` (an evaluation case: its batch writes it into its case store, docs/architecture.md#evaluation).
   * A host that dies meanwhile leaves nothing of it to repair: the case is not finished and a
   * resumed batch runs it again.
   */
  detach(runId: string, receive: (record: RunRecord) => void): void {
    this.detached.set(runId, receive);
  }

  /** Write every pending checkpoint now, flushed to disk (shutdown). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.journals.values()].map((j) => {
        if (j.timer) clearTimeout(j.timer);
        j.timer = undefined;
        return this.checkpoint(j, true);
      }),
    );
  }
}
