/**
 * The host's template engine (docs/architecture.md#templates): one template worker for the whole
 * process (shared/template/worker-engine.node.ts), started on first use: a process of its own
 * with a bounded heap, so a template that allocates without end ends that worker, never the host.
 * Under Node it is forked directly; the desktop shell hands its ProcessSpawner over
 * (`useSpawnerForTemplates`), since Electron's main process starts Node processes as utility
 * processes.
 */
import type { TemplateEngine } from '../../shared/template/render';
import { WorkerTemplateEngine } from '../../shared/template/worker-engine.node.js';
import { heapFlags, outOfMemory, type StartTemplateWorker, type TemplateWorkerEnd } from '../../shared/template/worker-link.node.js';
import type { ProcessSpawner } from './process/types';
import { templateWorkerEntry } from './process/entries';

let shared: WorkerTemplateEngine | undefined;
let start: StartTemplateWorker | undefined;

/** The host's engine, one worker for the whole process (started on first use). */
export function hostTemplateEngine(): TemplateEngine {
  shared ??= new WorkerTemplateEngine({ entry: templateWorkerEntry(), start, log: (m) => console.warn(`stepwise: ${m}`) });
  return shared.engine;
}

/** Start the host's template worker with `spawner` (the desktop shell's utility processes); call before the first render. */
export function useSpawnerForTemplates(spawner: ProcessSpawner): void {
  start = spawnerTemplateWorker(spawner);
}

/** A template worker as a child process of `spawner`, on the `template` channel of its link. */
export function spawnerTemplateWorker(spawner: ProcessSpawner): StartTemplateWorker {
  return (entry, limits) => {
    const link = spawner.spawn(entry, { name: 'template-worker', execArgv: heapFlags(limits) });
    let stderr = '';
    link.onStderr((c) => (stderr = (stderr + c).slice(-4096)));
    return {
      post: (msg) => link.send({ ch: 'template', msg }),
      onMessage: (listener) => void link.onFrame((f) => f.ch === 'template' && listener(f.msg)),
      onEnd: (listener) =>
        void link.onExit((e) => listener({ oom: outOfMemory(stderr), detail: e.signal ? `killed by ${e.signal}` : `exit code ${e.code}` } satisfies TemplateWorkerEnd)),
      kill: () => link.kill('SIGKILL'),
      idle: () => undefined,
    };
  };
}
