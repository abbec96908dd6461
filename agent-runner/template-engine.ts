/**
 * The runner's template engine for the threads its agent tools run (docs/architecture.md#templates):
 * a template worker with the same bounds as the host's (shared/template/worker-engine.node.ts),
 * so a template that runs too long fails that agent tool's call with the bound named, and the
 * run goes on, instead of holding the runner until Stop kills it. One worker per runner process,
 * started on first use; idle, it does not keep the process alive.
 */
import type { TemplateEngine } from '../shared/template/render';
import { WorkerTemplateEngine } from '../shared/template/worker-engine.node.js';
import { entryFile } from '../shared/entry-file.node.js';
import { TEMPLATE_WORKER } from '../shared/template/worker-entry';

let engine: WorkerTemplateEngine | undefined;

/** The runner's engine (see the module comment). `log` hears once when no worker can start (renders then run in process). */
export function runnerTemplateEngine(log: (message: string) => void): TemplateEngine {
  // This file is agent-runner/template-engine.ts: one folder below the repository root.
  engine ??= new WorkerTemplateEngine({ entry: entryFile(import.meta.url, 1, TEMPLATE_WORKER), log });
  return engine.engine;
}
