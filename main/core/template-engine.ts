/**
 * The host's template engine (docs/architecture.md#templates): one worker thread for the whole
 * process (shared/template/worker-engine.node.ts), started on first use.
 */
import type { TemplateEngine } from '../../shared/template/render';
import { WorkerTemplateEngine } from '../../shared/template/worker-engine.node.js';
import { templateWorkerEntry } from './process/entries';

let shared: WorkerTemplateEngine | undefined;

/** The host's engine, one worker for the whole process (started on first use). */
export function hostTemplateEngine(): TemplateEngine {
  shared ??= new WorkerTemplateEngine({ entry: templateWorkerEntry(), log: (m) => console.warn(`stepwise: ${m}`) });
  return shared.engine;
}
