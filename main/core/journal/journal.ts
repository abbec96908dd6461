/**
 * The run journal (docs/architecture.md#run-journal): each live run is checkpointed to
 * `$home/runs/<threadId>/<runId>.json` at most every ~250 ms and at close, atomically; on
 * start, run files still marked running with no live process are repaired.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { isTerminal } from '../../../shared/protocol/nodes';
import type { RunRecord } from '../../../shared/protocol/host-api';
import { HostError } from '../errors';
import { salvageResult } from './salvage';

const SAFE_ID = /^[A-Za-z0-9._-]{1,200}$/;

function safeId(id: string, what: string): string {
  if (!SAFE_ID.test(id) || id === '.' || id === '..') throw new HostError('bad_request', `${what} ${JSON.stringify(id)} is not a valid id`);
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

interface Pending {
  timer?: NodeJS.Timeout;
  lastWrite: number;
  chain: Promise<void>;
  build: () => RunRecord;
}

/** Writes run files: throttled checkpoints while live, one final write at close. */
export class RunJournal {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly home: string,
    private readonly opts: { intervalMs?: number; log?: (message: string) => void } = {},
  ) {}

  /** The run changed; write a checkpoint within the interval (the first one at once). */
  changed(runId: string, build: () => RunRecord): void {
    let p = this.pending.get(runId);
    if (!p) this.pending.set(runId, (p = { lastWrite: 0, chain: Promise.resolve(), build }));
    p.build = build;
    if (p.timer) return;
    const interval = this.opts.intervalMs ?? 250;
    const wait = Math.max(0, p.lastWrite + interval - Date.now());
    p.timer = setTimeout(() => {
      p!.timer = undefined;
      this.write(runId, p!, false);
    }, wait);
  }

  private write(runId: string, p: Pending, final: boolean): Promise<void> {
    p.lastWrite = Date.now();
    const record = p.build();
    const text = JSON.stringify(record);
    p.chain = p.chain
      .then(async () => {
        const file = runFile(this.home, record.threadId, record.runId);
        await fs.mkdir(path.dirname(file), { recursive: true });
        await writeFileAtomic(file, text, { fsync: final });
      })
      .catch((err: unknown) => this.opts.log?.(`journal: could not write run ${runId}: ${(err as Error).message}`));
    return p.chain;
  }

  /** Final write of a closed run; resolves when it is on disk. */
  async close(runId: string, record: RunRecord): Promise<void> {
    let p = this.pending.get(runId);
    if (!p) this.pending.set(runId, (p = { lastWrite: 0, chain: Promise.resolve(), build: () => record }));
    if (p.timer) clearTimeout(p.timer);
    p.timer = undefined;
    p.build = () => record;
    await this.write(runId, p, true);
    this.pending.delete(runId);
  }

  /** Write every pending checkpoint now (shutdown). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.pending.entries()].map(([runId, p]) => {
        if (p.timer) clearTimeout(p.timer);
        p.timer = undefined;
        return this.write(runId, p, true);
      }),
    );
  }
}

/** Read one run file; `not_found` when missing. */
export async function readRun(home: string, threadId: string, runId: string): Promise<RunRecord> {
  const file = runFile(home, threadId, runId);
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as RunRecord;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new HostError('not_found', `no run ${runId} for thread ${threadId}`);
    throw new HostError('bad_run_file', `${file}: ${(err as Error).message}`);
  }
}

/**
 * Every readable run file in `dir` with its path; none when the folder does not exist.
 * Unreadable files are skipped: a half-written file from a foreign tool (the atomic writer
 * never leaves one).
 */
async function runFilesIn(dir: string): Promise<{ file: string; rec: RunRecord }[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const out: { file: string; rec: RunRecord }[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = path.join(dir, name);
    try {
      out.push({ file, rec: JSON.parse(await fs.readFile(file, 'utf8')) as RunRecord });
    } catch {}
  }
  return out;
}

/** Every readable run file of a thread (unreadable ones are skipped). */
export async function listRuns(home: string, threadId: string): Promise<RunRecord[]> {
  const runs = await runFilesIn(runsDir(home, threadId));
  return runs.map((r) => r.rec).sort((a, b) => a.startedAt - b.startedAt);
}

/** Delete one run file. */
export async function deleteRun(home: string, threadId: string, runId: string): Promise<void> {
  await fs.rm(runFile(home, threadId, runId), { force: true });
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

/**
 * Repair run files left `running` (or `pending`) by a host that died: every open node becomes
 * `interrupted` with its partial output kept, the run `interrupted`, all ended at
 * {@link interruptedAt} (the last sign of life of the run). What the run added to its thread
 * is rebuilt from its tree (salvage.ts) into `messages` / `toolOutputs`, and the run marked
 * `resultPending` (not a dry run's) for the host to put it on the thread when it is opened.
 * `isLive(runId)` excludes runs that still have a process.
 */
export async function repairJournal(home: string, isLive: (runId: string) => boolean = () => false): Promise<JournalRepair> {
  const root = path.join(home, 'runs');
  const out: JournalRepair = { repaired: [], pending: [] };
  const threads = await fs.readdir(root).catch(() => [] as string[]);
  for (const t of threads) {
    for (const { file, rec } of await runFilesIn(path.join(root, t))) {
      // Only a file where the run's ids put it is read again by those ids.
      const pending = () => rec.resultPending && rec.threadId === t && path.basename(file) === `${rec.runId}.json`;
      if (isTerminal(rec.status) || rec.status === 'awaiting_input' || isLive(rec.runId)) {
        if (pending()) out.pending.push({ threadId: rec.threadId, runId: rec.runId });
        continue;
      }
      const mtime = await fs.stat(file).then((st) => st.mtimeMs, () => undefined);
      const end = interruptedAt(rec, mtime, Date.now());
      rec.nodes = (rec.nodes ?? []).map((n) => {
        if (isTerminal(n.status)) return n;
        const next = { ...n, status: 'interrupted' as const, endedAt: end };
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
      await writeFileAtomic(file, JSON.stringify(rec));
      out.repaired.push(rec.runId);
      if (pending()) out.pending.push({ threadId: rec.threadId, runId: rec.runId });
    }
  }
  return out;
}
