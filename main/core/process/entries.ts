/**
 * Where the child-process entries live (shared/entry-file.node.ts): from the bundle (this code
 * runs from `out/main/`) the sibling `agent-runner.js` / `mcp-host.js` / `template-worker.js`;
 * from sources the TypeScript entries, run through tsx. `STEPWISE_RUNNER_ENTRY` /
 * `STEPWISE_MCP_HOST_ENTRY` / `STEPWISE_TEMPLATE_WORKER_ENTRY` override them.
 */
import { entryFile } from '../../../shared/entry-file.node.js';
import { TEMPLATE_WORKER } from '../../../shared/template/worker-entry';

/** This file is main/core/process/entries.ts: three folders below the repository root. */
const DEPTH = 3;

/** The agent-runner entry file (one process per run). */
export function runnerEntry(): string {
  return entryFile(import.meta.url, DEPTH, { bundleName: 'agent-runner.js', sourcePath: 'agent-runner/index.ts', envName: 'STEPWISE_RUNNER_ENTRY' });
}

/** The mcp-host entry file (one long-lived process). */
export function mcpHostEntry(): string {
  return entryFile(import.meta.url, DEPTH, { bundleName: 'mcp-host.js', sourcePath: 'mcp-host/index.ts', envName: 'STEPWISE_MCP_HOST_ENTRY' });
}

/** The template worker thread's entry (main/core/template-engine.ts). */
export function templateWorkerEntry(): string {
  return entryFile(import.meta.url, DEPTH, TEMPLATE_WORKER);
}
