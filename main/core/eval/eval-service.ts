/**
 * Evaluation in the app (docs/architecture.md#evaluation): the workspace's datasets, and batches
 * started from a window. Batches run on the host's own core (a local pool: each case's run in
 * its own runner process) and report progress to every window as `eval_progress` pushes. Their
 * folders are under the workspace's `evals/<dataset>/<batch>/`, so each case's thread is a
 * workspace thread like any other. Paths in and out are workspace-relative.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { Thread } from '../../../shared/thread/schema';
import type { HostPush } from '../../../shared/protocol/host-api';
import { DATASET_SUFFIX, type Dataset, type EvalCase } from '../../../shared/eval/dataset';
import { checkDataset, formatDatasetFile, parseDatasetFile } from '../../../shared/eval/dataset-io';
import { outcomeOf } from '../../../shared/eval/outcome';
import type { CaseResult } from '../../../shared/eval/results';
import { DEFAULT_MAX_TURNS } from '../../../shared/thread/defaults';
import { HostError } from '../errors';
import { loadThreadFile } from '../threads/thread-file';
import { readRegularFile, SpecialFileError, specialFileKind } from '../../../shared/regular-file.node.js';
import { readRun } from '../journal/run-files';
import { safeStem, uniqueName } from '../workspace/names';
import { runBatch, type BatchProgress } from './batch';
import { BATCH_FILE, BatchFileError, listBatches, readBatchSpec, readResults, writeBatchSpec, type BatchSpec } from './batch-files';
import { LocalScheduler } from './scheduler';
import type { CaseHost } from './case-run';
import { variantProblems, type Variant } from './variants';
import type { Static } from '@sinclair/typebox';
import type { BatchInfoSchema } from '../../../shared/protocol/contract/eval-methods';

/** A batch as the app lists it: the contract's BatchInfo. */
export type BatchInfo = Static<typeof BatchInfoSchema>;

/** Longest reason an unreadable batch is listed with. */
const MAX_REASON = 400;

interface LiveBatch {
  controller: AbortController;
  progress: BatchProgress;
}

export interface StartBatchParams {
  threadPath: string;
  datasetPath: string;
  variants: Variant[];
  concurrency?: number;
  maxTurns?: number;
  name?: string;
}

/** The host's evaluation service. */
export class EvalService {
  private readonly live = new Map<string, LiveBatch>();
  private readonly dirs = new Map<string, string>();
  /** Broken batch files already logged (the list is read often). */
  private readonly reported = new Set<string>();

  constructor(
    private readonly core: CaseHost,
    private readonly ws: { readonly rootDir: string; resolve(relPath: string): Promise<string> },
    private readonly broadcast: (push: HostPush) => void,
    private readonly log: (level: 'warn' | 'error', message: string) => void,
  ) {}

  private get evalsRoot(): string {
    return path.join(this.ws.rootDir, 'evals');
  }

  private rel(abs: string): string {
    return path.relative(this.ws.rootDir, abs).split(path.sep).join('/');
  }

  /** Every `*.dataset.json` of the workspace (dot folders skipped), with its case count or load error. */
  async datasets(): Promise<{ path: string; name: string; cases: number; error?: string }[]> {
    const out: { path: string; name: string; cases: number; error?: string }[] = [];
    const walk = async (dir: string, depth: number): Promise<void> => {
      if (depth > 12) return;
      for (const d of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        if (d.name.startsWith('.')) continue;
        const abs = path.join(dir, d.name);
        if (d.isDirectory()) await walk(abs, depth + 1);
        else if (!d.isDirectory() && d.name.toLowerCase().endsWith(DATASET_SUFFIX)) {
          // A FIFO, socket or device named like a dataset is listed with why it is skipped, never opened.
          const special = d.isFile() ? undefined : await specialFileKind(abs);
          if (!d.isFile() && !special) continue;
          if (special) {
            out.push({ path: this.rel(abs), name: d.name.slice(0, -DATASET_SUFFIX.length), cases: 0, error: new SpecialFileError(special).message });
            continue;
          }
          const read = parseDatasetFile(await readRegularFile(abs).catch(() => ''));
          const base = d.name.slice(0, -DATASET_SUFFIX.length);
          out.push(read.ok ? { path: this.rel(abs), name: read.dataset.name, cases: read.dataset.cases.length } : { path: this.rel(abs), name: base, cases: 0, error: read.errors.slice(0, 3).join('; ') });
        }
      }
    };
    await walk(this.ws.rootDir, 0);
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  private async datasetFile(rel: string): Promise<string> {
    if (!rel.toLowerCase().endsWith(DATASET_SUFFIX)) throw new HostError('bad_request', `a dataset file ends in ${DATASET_SUFFIX}: ${rel}`);
    return this.ws.resolve(rel);
  }

  async readDataset(rel: string): Promise<Dataset> {
    const abs = await this.datasetFile(rel);
    let text: string;
    try {
      text = await readRegularFile(abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new HostError('not_found', `no dataset ${rel}`);
      if (err instanceof SpecialFileError) throw new HostError('invalid_dataset', `${rel}: ${err.message}`);
      throw err;
    }
    const read = parseDatasetFile(text);
    if (!read.ok) throw new HostError('invalid_dataset', `${rel}: ${read.errors.slice(0, 5).join('; ')}`);
    return read.dataset;
  }

  async saveDataset(rel: string | undefined, d: Dataset): Promise<{ path: string }> {
    const checked = checkDataset(d);
    if (!checked.ok) throw new HostError('invalid_dataset', checked.errors.slice(0, 5).join('; '));
    const abs = rel === undefined ? await this.newDatasetFile(d) : await this.datasetFile(rel);
    if (rel !== undefined) {
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFileAtomic(abs, formatDatasetFile(d));
    }
    this.broadcast({ type: 'workspace_changed' });
    return { path: this.rel(abs) };
  }

  /**
   * Writes a new dataset under `datasets/`, named after it, never over an existing file: a name
   * taken gets ` 2`, ` 3`… (as new threads do), and the file is created exclusively, so two
   * windows saving "New dataset" at once get two files. Returns its absolute path.
   */
  private async newDatasetFile(d: Dataset): Promise<string> {
    const dir = await this.ws.resolve('datasets');
    await mkdir(dir, { recursive: true });
    for (let attempt = 0; ; attempt++) {
      const name = await uniqueName(dir, safeStem(d.name), DATASET_SUFFIX);
      const abs = await this.datasetFile(`datasets/${name}`);
      try {
        await writeFile(abs, formatDatasetFile(d), { flag: 'wx' });
        return abs;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        if (attempt >= 20) throw new HostError('conflict', `datasets/${name}: the name kept being taken while saving; save again`);
      }
    }
  }

  /** A case from a past run: the thread's variables (with its picked scenario) and the run's final text as expected. */
  async addRunAsCase(rel: string, threadId: string, runId: string): Promise<Dataset> {
    const d = await this.readDataset(rel);
    const run = await readRun(this.core.home, threadId, runId);
    const thread = this.core.threads.has(threadId) ? this.core.threads.get(threadId).thread : undefined;
    const scenario = thread?.context.scenarios?.find((s) => s.name === thread.context.scenario);
    const vars = { ...(thread?.context.variables ?? {}), ...(scenario?.variables ?? {}) };
    const taken = new Set(d.cases.map((c) => c.id));
    let id = `run-${runId.slice(0, 8)}`;
    for (let n = 2; taken.has(id); n++) id = `run-${runId.slice(0, 8)}-${n}`;
    const c: EvalCase = { id, vars, expected: outcomeOf(run.nodes).finalText, source: { threadId, runId } };
    const next = { ...d, cases: [...d.cases, c] };
    await this.saveDataset(rel, next);
    return next;
  }

  private async threadAt(rel: string): Promise<Thread> {
    const abs = await this.ws.resolve(rel);
    const id = this.core.threads.idOfFile(abs);
    // An open thread's current copy (its unsaved edits included) is what the person sees.
    if (id && this.core.threads.has(id)) return structuredClone(this.core.threads.get(id).thread);
    return loadThreadFile(abs);
  }

  async start(p: StartBatchParams): Promise<BatchInfo> {
    const thread = await this.threadAt(p.threadPath);
    const dataset = await this.readDataset(p.datasetPath);
    if (!dataset.cases.length) throw new HostError('bad_request', `${p.datasetPath} has no cases`);
    const problems = variantProblems(p.variants, thread);
    if (problems.length) throw new HostError('bad_request', problems.join('; '));
    const id = `${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}-${randomUUID().slice(0, 6)}`;
    const dir = path.join(this.evalsRoot, safeStem(dataset.name), id);
    const spec: BatchSpec = {
      id,
      name: p.name ?? dataset.name,
      createdAt: Date.now(),
      threadFile: p.threadPath,
      thread,
      datasetFile: p.datasetPath,
      dataset,
      variants: p.variants,
      concurrency: p.concurrency ?? 4,
      maxTurns: p.maxTurns ?? thread.settings?.maxTurns ?? DEFAULT_MAX_TURNS,
      scheduler: 'local',
    };
    await writeBatchSpec(dir, spec);
    this.dirs.set(id, dir);
    return this.launch(spec, dir);
  }

  async resume(batchId: string): Promise<BatchInfo> {
    if (this.live.has(batchId)) throw new HostError('batch_running', 'the batch is running');
    const dir = await this.dirOf(batchId);
    return this.launch(await this.specOf(dir), dir);
  }

  private launch(spec: BatchSpec, dir: string): BatchInfo {
    const controller = new AbortController();
    const total = spec.dataset.cases.length * spec.variants.length;
    const live: LiveBatch = { controller, progress: { total, done: 0, running: 0, failed: 0 } };
    this.live.set(spec.id, live);
    const push = (progress: BatchProgress, result?: CaseResult, ended?: boolean) => {
      live.progress = progress;
      const msg: HostPush = { type: 'eval_progress', batchId: spec.id, progress };
      if (result) msg.result = this.forClient(result, dir);
      if (ended) msg.ended = true;
      this.broadcast(msg);
    };
    let last: CaseResult | undefined;
    const scheduler = new LocalScheduler(this.core);
    void runBatch({
      spec,
      dir,
      scheduler,
      signal: controller.signal,
      onResult: (r) => (last = r),
      onProgress: (p) => {
        push(p, last);
        last = undefined;
      },
    })
      .finally(() => scheduler.close())
      .then(() => {
        this.live.delete(spec.id);
        push(live.progress, undefined, true);
        this.broadcast({ type: 'workspace_changed' });
      })
      .catch((err: unknown) => {
        this.live.delete(spec.id);
        this.log('error', `batch ${spec.id} stopped: ${(err as Error).message}`);
        push(live.progress, undefined, true);
      });
    this.broadcast({ type: 'workspace_changed' });
    return this.info(spec, dir, live.progress, true);
  }

  cancel(batchId: string): void {
    const live = this.live.get(batchId);
    if (!live) throw new HostError('not_found', 'that batch is not running');
    live.controller.abort();
  }

  private info(spec: BatchSpec, dir: string, progress: BatchProgress, live: boolean): BatchInfo {
    return {
      id: spec.id,
      name: spec.name,
      createdAt: spec.createdAt,
      path: this.rel(dir),
      threadTitle: spec.thread.title,
      datasetName: spec.dataset.name,
      variants: spec.variants.map((v) => v.name),
      progress,
      live,
    };
  }

  /** A result as a client sees it: its thread file workspace-relative. */
  private forClient(r: CaseResult, dir: string): CaseResult {
    return r.threadFile ? { ...r, threadFile: this.rel(path.join(dir, r.threadFile)) } : r;
  }

  private async dirOf(batchId: string): Promise<string> {
    const known = this.dirs.get(batchId);
    if (known) return known;
    let broken: string | undefined;
    for (const entry of await listBatches(this.evalsRoot)) {
      if ('spec' in entry) this.dirs.set(entry.spec.id, entry.dir);
      else if (entry.error.batchId === batchId) broken ??= `batch ${batchId} cannot be read: ${this.rel(entry.dir)}/${entry.error.message}`;
    }
    const dir = this.dirs.get(batchId);
    if (dir) return dir;
    if (broken) throw new HostError('invalid_batch', broken);
    throw new HostError('not_found', `no batch ${batchId}`);
  }

  /** The batch file of `dir`, checked; a broken one is a HostError naming its workspace path and fields. */
  private async specOf(dir: string): Promise<BatchSpec> {
    try {
      return await readBatchSpec(dir);
    } catch (err) {
      if (err instanceof BatchFileError) throw new HostError('invalid_batch', `${this.rel(dir)}/${err.message}`);
      throw err;
    }
  }

  /**
   * Every batch whose file checks, newest first, then those whose file does not, each with its
   * reason (logged once too): listed so a person sees why a batch is missing from the results.
   */
  async batches(): Promise<BatchInfo[]> {
    const out: BatchInfo[] = [];
    for (const entry of await listBatches(this.evalsRoot)) {
      if (!('spec' in entry)) {
        const problem = `${this.rel(entry.dir)}/${entry.error.message}`;
        if (!this.reported.has(problem)) this.log('warn', `batch file cannot be used: ${problem}`);
        this.reported.add(problem);
        out.push(await this.unreadable(entry.dir, entry.error));
        continue;
      }
      this.dirs.set(entry.spec.id, entry.dir);
      out.push(await this.infoOf(entry.spec, entry.dir));
    }
    return out;
  }

  /** A batch whose file cannot be used, as listed: its place and a one-line reason; dated by its file's last change. */
  private async unreadable(dir: string, error: BatchFileError): Promise<BatchInfo> {
    const folder = path.basename(dir);
    const reason = error.message.replace(/\s*[\r\n]+\s*/g, ' ');
    return {
      id: error.batchId ?? folder,
      name: folder,
      createdAt: await stat(path.join(dir, BATCH_FILE)).then((s) => s.mtimeMs, () => 0),
      path: this.rel(dir),
      threadTitle: '',
      datasetName: '',
      variants: [],
      progress: { total: 0, done: 0, running: 0, failed: 0 },
      live: false,
      error: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason,
    };
  }

  private async infoOf(spec: BatchSpec, dir: string): Promise<BatchInfo> {
    const live = this.live.get(spec.id);
    if (live) return this.info(spec, dir, live.progress, true);
    const { results, skipped } = await readResults(dir);
    const total = spec.dataset.cases.length * spec.variants.length;
    const info = this.info(spec, dir, { total, done: results.length, running: 0, failed: results.filter((r) => r.status !== 'passed').length }, false);
    return skipped.length ? { ...info, skippedLines: skipped.length } : info;
  }

  async batch(batchId: string): Promise<{ info: BatchInfo; results: CaseResult[] }> {
    const dir = await this.dirOf(batchId);
    const spec = await this.specOf(dir);
    const { results } = await readResults(dir);
    return { info: await this.infoOf(spec, dir), results: results.map((r) => this.forClient(r, dir)) };
  }

  /** Cancel every running batch (host shutdown). */
  cancelAll(): void {
    for (const b of this.live.values()) b.controller.abort();
  }
}
