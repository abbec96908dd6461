/**
 * The template worker thread (docs/architecture.md#templates): renders texts for a worker
 * template engine (worker-engine.node.ts; the host's, and a runner's for agent tools) off that
 * process's event loop, so a template that runs too long is stopped by ending this thread, and
 * nothing else waits on it. One session per render of a thread: its variable values, problems
 * and file cache, sent once and then added to.
 */
import { parentPort } from 'node:worker_threads';
import { TemplateRenderer, type RenderScope } from './render';
import { renderReply, type TemplateWorkerReply, type TemplateWorkerRequest } from './worker-protocol';

const sessions = new Map<number, { scope: RenderScope; renderer: TemplateRenderer }>();

function handle(req: TemplateWorkerRequest): TemplateWorkerReply | undefined {
  if (req.type === 'close') {
    sessions.delete(req.session);
    return undefined;
  }
  let s = sessions.get(req.session);
  if (req.open) {
    const scope: RenderScope = { values: req.open.values, problems: req.open.problems, files: new Map(), wanted: new Set() };
    s = { scope, renderer: new TemplateRenderer(scope) };
    sessions.set(req.session, s);
  }
  if (!s) return { id: req.id, failure: `no template session ${req.session}`, wanted: [] };
  for (const [p, hit] of req.files) s.scope.files.set(p, hit);
  return renderReply(s.renderer, s.scope, req.id, req.source);
}

parentPort?.on('message', (req: TemplateWorkerRequest) => {
  const reply = handle(req);
  if (reply) parentPort?.postMessage(reply);
});
// Ready: the engine sends its first text after this.
parentPort?.postMessage({ ready: true });
