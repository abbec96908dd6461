/**
 * The template worker (docs/architecture.md#templates): renders texts for a worker template
 * engine (worker-engine.node.ts; the host's, and a runner's for agent tools) off that process's
 * event loop. It runs as a process of its own (the `template` channel of its process link,
 * started with a heap bound), so a template that runs too long or allocates too much ends this
 * process and nothing else; where no process can be started it runs as a worker thread with
 * resource limits. One session per render of a thread: its variable values, problems and file
 * cache, sent once and then added to.
 */
import { parentPort } from 'node:worker_threads';
import { TemplateRenderer, type RenderScope } from './render';
import { renderReply, type TemplateWorkerReply, type TemplateWorkerRequest } from './worker-protocol';
import { ENGINE_TO_TEMPLATE_WORKER, type TemplateWorkerToEngine } from '../protocol/contract/template-channel';
import { messageGate } from '../protocol/contract/gate';
import { channelPort, onHostGone } from '../process-port.node.js';

const sessions = new Map<number, { scope: RenderScope; renderer: TemplateRenderer }>();
const gate = messageGate('template-worker', ENGINE_TO_TEMPLATE_WORKER);

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
  if (!s) return { type: 'failure', id: req.id, message: `no template session ${req.session}`, wanted: [] };
  for (const [p, hit] of req.files) s.scope.files.set(p, hit);
  return renderReply(s.renderer, s.scope, req.id, req.source);
}

const port: { post(m: TemplateWorkerToEngine): void; onMessage(l: (m: unknown) => void): void } = parentPort
  ? { post: (m) => parentPort!.postMessage(m), onMessage: (l) => void parentPort!.on('message', l) }
  : channelPort<unknown, TemplateWorkerToEngine>('template');
if (!parentPort) onHostGone(() => process.exit(0));

port.onMessage((req) => {
  if (!gate.accept(req)) return;
  const reply = handle(req);
  if (reply) port.post(reply);
});
// Ready: the engine sends its first text after this.
port.post({ type: 'ready' });
