/**
 * What a worker template engine (worker-engine.node.ts) and its template worker (worker.node.ts)
 * send each other (the entries are in shared/protocol/contract/template-channel.ts), and the one
 * function turning a render into a reply (used in the worker, and in process when no worker can
 * start).
 */
import { TemplateError, TemplateLimitError, type RenderScope, type TemplateRenderer } from './render';
import type { EngineToTemplateWorker, TemplateWorkerToEngine } from '../protocol/contract/template-channel';

/** Engine → worker. */
export type TemplateWorkerRequest = EngineToTemplateWorker;

/** Worker → engine, one per render. */
export type TemplateWorkerReply = Exclude<TemplateWorkerToEngine, { type: 'ready' }>;

/** Renders `source` with `renderer` (over `scope`) into a reply; never throws. */
export function renderReply(renderer: TemplateRenderer, scope: RenderScope, id: number, source: string): TemplateWorkerReply {
  scope.wanted.clear();
  const wanted = () => [...scope.wanted];
  try {
    return { type: 'text', id, text: renderer.render(source), wanted: wanted() };
  } catch (err) {
    if (err instanceof TemplateError) return { type: 'error', id, detail: err.detail, line: err.line, column: err.column, ...(err.file ? { file: err.file } : {}), wanted: wanted() };
    if (err instanceof TemplateLimitError) return { type: 'limit', id, message: err.message, wanted: wanted() };
    return { type: 'failure', id, message: (err as Error)?.message ?? String(err), wanted: wanted() };
  }
}
