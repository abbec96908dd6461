/**
 * Reading stored runs (docs/architecture.md#run-journal): a closed run's run file
 * `<runId>.json`, or, for a run still open (or left open by a host that died), what its journal
 * `<runId>.jsonl` holds (journal-log.ts). On start, runs left open with no live process are
 * repaired into run files.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { isTerminal, type ExecNode } from '../../../shared/protocol/nodes';
import type { RunRecord } from '../../../shared/protocol/host-api';
import { HostError } from '../errors';
import { journalFile, runFile, runsDir } from './journal';
import { replayJournal } from './journal-log';
import { salvageResult } from './salvage';
import { RunRecordSchema } from '../../../shared/protocol/contract/host-methods';
import { schemaProblems } from '../../../shared/thread/validate';

/** The run a journal file holds, or undefined when it has none (missing, or no first line). */
async function readJournal(file: string): Promise<RunRecord | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : replayJournal(text)?.record();
}

/**
 * Read one run: its run file, or when there is none yet, its journal (a run still running, or
 * left open by a host that died). `not_found` when neither exists.
 */
export async function readRun(home: string, threadId: string, runId: string): Promise<RunRecord> {
  const file = runFile(home, threadId, runId);
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as RunRecord;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new HostError('bad_run_file', `${file}: ${(err as Error).message}`);
  }
  const live = await readJournal(journalFile(home, threadId, runId));
  if (live) return live;
  throw new HostError('not_found', `no run ${runId} for thread ${threadId}`);
}

/**
 * {@link readRun}, and the record checked against the run record's schema: for what reads a run
 * to re-run or branch from it, where a hand-edited or foreign run file would otherwise give a
 * misleading answer ("made 0 model calls"). `bad_run_file` names the file and the first
 * problem's JSON pointer.
 */
export async function readRunChecked(home: string, threadId: string, runId: string): Promise<RunRecord> {
  const rec = await readRun(home, threadId, runId);
  const [first] = schemaProblems(RunRecordSchema, rec);
  if (!first) return rec;
  const file = runFile(home, threadId, runId);
  throw new HostError('bad_run_file', `${first.pointer ? `${file}:${first.pointer}` : file}: ${first.message} (the run file is damaged: it cannot be re-run or branched from)`);
}

/** One run found in a thread's folder: from its run file, or from its journal alone. */
interface Found {
  rec: RunRecord;
  /** The run file (`.json`), also for a run found by its journal (where its run file goes). */
  file: string;
  /** The run's journal, when it has one. */
  journal?: string;
}

/**
 * Every readable run in `dir`: run files, and journals without a run file (but those of runs
 * `skip` names); none when the folder does not exist. Unreadable run files are skipped (a
 * half-written file from a foreign tool: the atomic writer never leaves one).
 */
async function runsIn(dir: string, skip: (runId: string) => boolean = () => false): Promise<Found[]> {
  const names = new Set(await fs.readdir(dir).catch(() => [] as string[]));
  const out: Found[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if (name.endsWith('.json')) {
      try {
        const rec = JSON.parse(await fs.readFile(file, 'utf8')) as RunRecord;
        out.push({ rec, file, journal: names.has(`${name}l`) ? `${file}l` : undefined });
      } catch {}
    } else if (name.endsWith('.jsonl') && !names.has(name.slice(0, -1)) && !skip(name.slice(0, -'.jsonl'.length))) {
      const rec = await readJournal(file);
      if (rec) out.push({ rec, file: file.slice(0, -1), journal: file });
    }
  }
  return out;
}

/**
 * Every readable run of a thread, closed or not (unreadable ones are skipped). `live(runId)`:
 * runs the caller holds live, whose journals it need not replay.
 */
export async function listRuns(home: string, threadId: string, live?: (runId: string) => boolean): Promise<RunRecord[]> {
  const runs = await runsIn(runsDir(home, threadId), live);
  return runs.map((r) => r.rec).sort((a, b) => a.startedAt - b.startedAt);
}

/** Delete one run: its run file and its journal. */
export async function deleteRun(home: string, threadId: string, runId: string): Promise<void> {
  await fs.rm(runFile(home, threadId, runId), { force: true });
  await fs.rm(journalFile(home, threadId, runId), { force: true });
}

/**
 * When a run found open by {@link repairJournal} ended, as well as the file can tell: the last
 * time the host heard from its process (`lastEventAt`; for files written before that field,
 * the file's last checkpoint, `fileMtimeMs`), never before any time a node recorded and never
 * after `now`. Not the time of the repair: a host restarted half an hour later must not make a
 * 7-second run last half an hour.
 */
export function interruptedAt(rec: Pick<RunRecord, 'startedAt' | 'lastEventAt' | 'nodes'>, fileMtimeMs: number | undefined, now: number): number {
  let end = rec.lastEventAt ?? fileMtimeMs ?? rec.startedAt ?? now;
  for (const n of rec.nodes ?? []) end = Math.max(end, n.startedAt ?? 0, n.endedAt ?? 0);
  end = Math.max(end, rec.startedAt ?? 0);
  return Math.min(end, now);
}

/** What {@link repairJournal} did. */
export interface JournalRepair {
  /** Ids of the runs it closed. */
  repaired: string[];
  /** Closed runs (now or at an earlier start) whose result still has to go onto their thread. */
  pending: { threadId: string; runId: string }[];
}

/** Close a run found open: every open node `interrupted` at `end`, its result rebuilt from its tree. */
function closeLeftOpen(rec: RunRecord, end: number): void {
  rec.nodes = (rec.nodes ?? []).map((n) => {
    if (isTerminal(n.status)) return n;
    const next: ExecNode = { ...n, status: 'interrupted' as const, endedAt: end, durationMs: Math.max(0, end - n.startedAt) };
    if (!n.parentId) next.error = { message: 'The host stopped while this run was running.' };
    return next;
  });
  rec.status = 'interrupted';
  rec.endedAt = end;
  if (!rec.messages) {
    const salvaged = salvageResult(rec, 'Stepwise stopped');
    if (salvaged.messages.length) rec.messages = salvaged.messages;
    if (salvaged.toolOutputs.length) rec.toolOutputs = salvaged.toolOutputs;
  }
  if (!rec.dryRun) rec.resultPending = true;
}

/**
 * Repair runs left `running` (or `pending`) by a host that died — a journal without its run
 * file, or a run file still marked running: every open node becomes `interrupted` with its
 * partial output kept, the run `interrupted`, all ended at {@link interruptedAt} (the last
 * sign of life of the run). What the run added to its thread is rebuilt from its tree
 * (salvage.ts) into `messages` / `toolOutputs`, and the run marked `resultPending` (not a dry
 * run's) for the host to put it on the thread when it is opened. The run file is written, then
 * the journal removed; a journal beside a finished run file (a host that died between the two)
 * is removed. `isLive(runId)` excludes runs that still have a process.
 */
export async function repairJournal(home: string, isLive: (runId: string) => boolean = () => false): Promise<JournalRepair> {
  const root = path.join(home, 'runs');
  const out: JournalRepair = { repaired: [], pending: [] };
  const threads = await fs.readdir(root).catch(() => [] as string[]);
  for (const t of threads) {
    for (const { file, rec, journal } of await runsIn(path.join(root, t), isLive)) {
      if (isLive(rec.runId)) continue;
      // Only a file where the run's ids put it is read again by those ids.
      const pending = () => rec.resultPending && rec.threadId === t && path.basename(file) === `${rec.runId}.json`;
      if (isTerminal(rec.status) || rec.status === 'awaiting_input') {
        if (journal) await fs.rm(journal, { force: true });
        if (pending()) out.pending.push({ threadId: rec.threadId, runId: rec.runId });
        continue;
      }
      const mtime = await fs.stat(journal ?? file).then((st) => st.mtimeMs, () => undefined);
      closeLeftOpen(rec, interruptedAt(rec, mtime, Date.now()));
      await writeFileAtomic(file, JSON.stringify(rec));
      if (journal) await fs.rm(journal, { force: true });
      out.repaired.push(rec.runId);
      if (pending()) out.pending.push({ threadId: rec.threadId, runId: rec.runId });
    }
  }
  return out;
}
