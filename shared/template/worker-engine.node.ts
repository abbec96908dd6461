/**
 * A template engine rendering in a template worker (docs/architecture.md#templates), used by the
 * host for every thread it renders and by a runner for the threads its agent tools run: every
 * text is rendered in one worker (worker.node.ts; a process of its own, worker-link.node.ts),
 * one text at a time, so the process's event loop never runs a template and its memory is never
 * at stake. A render that takes longer than the time budget ends the worker (the next render
 * starts a new one) and fails with a TemplateLimitError naming the bound, as does a worker that
 * runs out of its memory limit or crashes.
 */
import { TemplateError, TemplateLimitError, TemplateRenderer, type RenderScope, type TemplateEngine, type TemplateSession } from './render';
import { renderReply, type TemplateWorkerReply, type TemplateWorkerRequest } from './worker-protocol';
import { forkTemplateWorker, threadTemplateWorker, type StartTemplateWorker, type TemplateWorkerLink } from './worker-link.node.js';
import { TemplateWorkerToEngineSchema } from '../protocol/contract/template-channel';
import { firstProblem } from '../protocol/contract/gate';

/** Longest one text may take to render, in ms. */
export const TEMPLATE_TIME_BUDGET_MS = 2000;

/** The worker's old-generation heap limit, in MB. */
export const TEMPLATE_WORKER_MEMORY_MB = 256;
/** The worker's young-generation heap limit, in MB. */
export const TEMPLATE_WORKER_YOUNG_MB = 48;
/** A worker thread's stack, in MB. */
export const TEMPLATE_WORKER_STACK_MB = 4;

/** How this process starts its template worker by default: a process under Node, a thread under Electron (see worker-link.node.ts). */
export const defaultTemplateWorker: StartTemplateWorker = process.versions.electron ? threadTemplateWorker : forkTemplateWorker;

interface Pending {
  id: number;
  settle: (reply: TemplateWorkerReply | TemplateLimitError) => void;
}

/** Renders in a worker thread; see the module comment. */
export class WorkerTemplateEngine {
  private worker: TemplateWorkerLink | undefined;
  /** The current worker once it is ready; undefined when there is none. */
  private ready: Promise<TemplateWorkerLink> | undefined;
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
   * sources); `start`: how to start it (default {@link defaultTemplateWorker}); `budgetMs` and
   * `memoryMb` default to {@link TEMPLATE_TIME_BUDGET_MS} and {@link TEMPLATE_WORKER_MEMORY_MB};
   * `log` hears once when no worker can start.
   */
  constructor(private readonly o: { entry: string; start?: StartTemplateWorker; budgetMs?: number; memoryMb?: number; log?: (message: string) => void }) {}

  /** The engine to pass to renderThread. */
  readonly engine: TemplateEngine = (scope) => this.open(scope);

  /** Ends the worker (a later render starts a new one). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    w?.kill();
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
          if (reply.type === 'text') return reply.text;
          if (reply.type === 'error') throw new TemplateError(reply.detail, reply.line, reply.column, reply.file);
          if (reply.type === 'limit') throw new TemplateLimitError(reply.message);
          throw new Error(reply.message);
        });
      },
      close: () => {
        if (openIn === this.generation) this.worker?.post({ type: 'close', session } satisfies TemplateWorkerRequest);
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

  private request(w: TemplateWorkerLink, req: Extract<TemplateWorkerRequest, { type: 'render' }>): Promise<TemplateWorkerReply> {
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
          if (this.worker === w) w.idle(true);
          if (r instanceof TemplateLimitError) reject(r);
          else resolve(r);
        },
      };
      w.idle(false);
      w.post(req);
    });
  }

  /** Fails the render in progress with `err` and ends the worker. */
  private fail(err: TemplateLimitError): void {
    this.pending?.settle(err);
    const w = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    this.generation++;
    w?.kill();
  }

  /** The worker, started and ready (its first message) when there is none. */
  private spawned(): Promise<TemplateWorkerLink> {
    if (this.ready) return this.ready;
    const memoryMb = this.o.memoryMb ?? TEMPLATE_WORKER_MEMORY_MB;
    const w = (this.o.start ?? defaultTemplateWorker)(this.o.entry, { memoryMb, youngMb: TEMPLATE_WORKER_YOUNG_MB, stackMb: TEMPLATE_WORKER_STACK_MB });
    this.worker = w;
    this.generation++;
    let started = false;
    const ready = new Promise<TemplateWorkerLink>((resolve, reject) => {
      w.onMessage((m) => {
        const problem = firstProblem(TemplateWorkerToEngineSchema, m);
        if (problem !== undefined) {
          if (this.worker === w) this.fail(new TemplateLimitError(`the template worker sent a malformed message (${problem})`));
          return;
        }
        const reply = m as TemplateWorkerReply | { type: 'ready' };
        if (reply.type === 'ready') {
          started = true;
          resolve(w);
        } else if (this.pending?.id === reply.id) this.pending.settle(reply);
      });
      w.onEnd((end) => {
        if (!started) reject(new Error(`the template worker stopped before it was ready (${end.detail})`));
        if (this.worker !== w) return;
        this.fail(new TemplateLimitError(end.oom ? `rendering used more than ${memoryMb} MB of memory and was stopped` : `the template worker stopped (${end.detail})`));
      });
    });
    // Idle once ready, the worker never keeps a CLI process alive; a render in progress does, by its timer.
    this.ready = ready.then((ok) => (ok.idle(true), ok)).catch((err: Error) => {
      throw new TemplateLimitError(`the template worker could not start: ${err.message}`);
    });
    return this.ready;
  }
}
