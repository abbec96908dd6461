/**
 * A template engine rendering in a worker thread (docs/architecture.md#templates), used by the
 * host for every thread it renders and by a runner for the threads its agent tools run: every
 * text is rendered in one worker thread (worker.node.ts), one text at a time, so the process's
 * event loop never runs a template. A render that takes longer than the time budget ends the
 * worker (the next render starts a new one) and fails with a TemplateLimitError naming the
 * bound, as does a worker that runs out of its memory limit.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TemplateError, TemplateLimitError, TemplateRenderer, type RenderScope, type TemplateEngine, type TemplateSession } from './render';
import { renderReply, type TemplateWorkerReply, type TemplateWorkerRequest } from './worker-protocol';

/** True for a TypeScript entry (running from sources), which tsx loads. */
const isTypeScriptEntry = (entry: string): boolean => /\.[cm]?tsx?$/.test(entry);

/** Longest one text may take to render, in ms. */
export const TEMPLATE_TIME_BUDGET_MS = 2000;

/** The worker's heap limit, in MB. */
export const TEMPLATE_WORKER_MEMORY_MB = 256;

interface Pending {
  id: number;
  settle: (reply: TemplateWorkerReply | TemplateLimitError) => void;
}

/** Renders in a worker thread; see the module comment. */
export class WorkerTemplateEngine {
  private worker: Worker | undefined;
  /** The current worker once it is ready; undefined when there is none. */
  private ready: Promise<Worker> | undefined;
  /** Bumped for each new worker: a session opens again in a worker that has not seen it. */
  private generation = 0;
  private nextId = 1;
  private nextSession = 1;
  private pending: Pending | undefined;
  /** Why no worker could start; renders then run in process. */
  private unavailable: string | undefined;
  /** Renders run one after the other: the budget counts one text's own time. */
  private tail: Promise<unknown> = Promise.resolve();

  /**
   * `entry`: the worker's file (`out/main/template-worker.js` in the build, worker.node.ts from
   * sources); `budgetMs` and `memoryMb` default to {@link TEMPLATE_TIME_BUDGET_MS} and
   * {@link TEMPLATE_WORKER_MEMORY_MB}; `log` hears once when no worker can start.
   */
  constructor(private readonly o: { entry: string; budgetMs?: number; memoryMb?: number; log?: (message: string) => void }) {}

  /** The engine to pass to renderThread. */
  readonly engine: TemplateEngine = (scope) => this.open(scope);

  /** Ends the worker (a later render starts a new one). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    await w?.terminate();
  }

  private open(scope: RenderScope): TemplateSession {
    const session = this.nextSession++;
    let openIn = -1;
    const sent = new Set<string>();
    let local: TemplateRenderer | undefined;
    return {
      render: (source) => {
        const run = this.tail.then(async (): Promise<TemplateWorkerReply> => {
          const w = this.unavailable === undefined ? await this.spawned().catch((err: Error) => this.noWorker(err)) : undefined;
          if (!w) {
            local ??= new TemplateRenderer(scope);
            return renderReply(local, scope, 0, source);
          }
          const open = openIn !== this.generation ? { values: scope.values, problems: scope.problems } : undefined;
          if (open) {
            openIn = this.generation;
            sent.clear();
          }
          const files = [...scope.files].filter(([p]) => !sent.has(p));
          for (const [p] of files) sent.add(p);
          return this.request(w, { type: 'render', id: this.nextId++, session, ...(open ? { open } : {}), files, source });
        });
        this.tail = run.catch(() => undefined);
        return run.then((reply) => {
          for (const p of reply.wanted) scope.wanted.add(p);
          if ('text' in reply) return reply.text;
          if ('error' in reply) throw new TemplateError(reply.error.detail, reply.error.line, reply.error.column, reply.error.file);
          if ('limit' in reply) throw new TemplateLimitError(reply.limit);
          throw new Error(reply.failure);
        });
      },
      close: () => {
        if (openIn === this.generation) this.worker?.postMessage({ type: 'close', session } satisfies TemplateWorkerRequest);
      },
    };
  }

  /**
   * No worker could start (e.g. a packaging that cannot load its file): render in process from
   * now on, with the engine's own bounds but no time budget, and say so once.
   */
  private noWorker(err: Error): undefined {
    this.unavailable = err.message;
    this.o.log?.(`templates render in the process's own thread: ${err.message}`);
    return undefined;
  }

  private request(w: Worker, req: Extract<TemplateWorkerRequest, { type: 'render' }>): Promise<TemplateWorkerReply> {
    const budget = this.o.budgetMs ?? TEMPLATE_TIME_BUDGET_MS;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new TemplateLimitError(`rendering took longer than ${budget / 1000} s (a loop too long?) and was stopped`));
      }, budget);
      this.pending = {
        id: req.id,
        settle: (r) => {
          clearTimeout(timer);
          this.pending = undefined;
          if (r instanceof TemplateLimitError) reject(r);
          else resolve(r);
        },
      };
      w.postMessage(req);
    });
  }

  /** Fails the render in progress with `err` and ends the worker. */
  private fail(err: TemplateLimitError): void {
    this.pending?.settle(err);
    const w = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    this.generation++;
    void w?.terminate();
  }

  /** The worker, started and ready (its first message) when there is none. */
  private spawned(): Promise<Worker> {
    if (this.ready) return this.ready;
    const entry = this.o.entry;
    const memoryMb = this.o.memoryMb ?? TEMPLATE_WORKER_MEMORY_MB;
    const limits = { resourceLimits: { maxOldGenerationSizeMb: memoryMb }, stdout: false, stderr: false };
    // From sources (development, tests) the entry is TypeScript: tsx loads it. `--import` of
    // tsx's loader does not reach a worker's own module loading on Node 20, its `tsImport` does.
    const w = isTypeScriptEntry(entry)
      ? new Worker(`import(${JSON.stringify(tsxApi())}).then((api) => api.tsImport(${JSON.stringify(pathToFileURL(entry).href)}, ${JSON.stringify(import.meta.url)}))`, { ...limits, eval: true })
      : new Worker(entry, limits);
    this.worker = w;
    this.generation++;
    const ready = new Promise<Worker>((resolve, reject) => {
      w.once('message', () => resolve(w));
      w.once('error', reject);
      w.once('exit', () => reject(new Error('the template worker stopped before it was ready')));
    });
    w.on('message', (reply: TemplateWorkerReply | { ready: true }) => {
      if ('id' in reply && this.pending?.id === reply.id) this.pending.settle(reply);
    });
    w.on('error', (err: Error & { code?: string }) => {
      if (this.worker !== w) return;
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(new TemplateLimitError(oom ? `rendering used more than ${memoryMb} MB of memory and was stopped` : `the template worker failed: ${err.message}`));
    });
    w.on('exit', () => {
      if (this.worker === w) this.fail(new TemplateLimitError('the template worker stopped'));
    });
    // Unref'd once ready (after its listeners: adding a 'message' listener refs it again), the
    // idle worker never keeps a CLI process alive; a render in progress does, by its timer.
    this.ready = ready.then((ok) => (ok.unref(), ok)).catch((err: Error) => {
      throw new TemplateLimitError(`the template worker could not start: ${err.message}`);
    });
    return this.ready;
  }
}

/**
 * tsx's ES module API as a file URL, resolved from here so the worker finds it whatever the cwd
 * (`require.resolve` gives its CommonJS twin, `index.cjs`, beside `index.mjs`).
 */
function tsxApi(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  } catch {
    return 'tsx/esm/api';
  }
}
