/**
 * What a worker template engine (worker-engine.node.ts) and its worker thread (worker.node.ts)
 * send each other, and the one function turning a render into a reply (used in the worker, and
 * in process when no worker can start).
 */
import { TemplateError, TemplateLimitError, type FileLookup, type RenderScope, type TemplateRenderer } from './render';

/** Engine → worker. `open` starts session `session` (sent again to a new worker); `files` are the cache entries it has not seen. */
export type TemplateWorkerRequest =
  | { type: 'render'; id: number; session: number; open?: { values: Record<string, unknown>; problems: Record<string, string> }; files: [string, FileLookup][]; source: string }
  | { type: 'close'; session: number };

/** Worker → engine: the text, a TemplateError's fields, a bound passed, or another failure; `wanted`: paths asked for and not in the cache. */
export type TemplateWorkerReply = { id: number; wanted: string[] } & (
  | { text: string }
  | { error: { detail: string; line: number; column: number; file?: string } }
  | { limit: string }
  | { failure: string }
);

/** Renders `source` with `renderer` (over `scope`) into a reply; never throws. */
export function renderReply(renderer: TemplateRenderer, scope: RenderScope, id: number, source: string): TemplateWorkerReply {
  scope.wanted.clear();
  const wanted = () => [...scope.wanted];
  try {
    return { id, text: renderer.render(source), wanted: wanted() };
  } catch (err) {
    if (err instanceof TemplateError) return { id, error: { detail: err.detail, line: err.line, column: err.column, ...(err.file ? { file: err.file } : {}) }, wanted: wanted() };
    if (err instanceof TemplateLimitError) return { id, limit: err.message, wanted: wanted() };
    return { id, failure: (err as Error)?.message ?? String(err), wanted: wanted() };
  }
}
