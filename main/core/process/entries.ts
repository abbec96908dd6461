/**
 * Where the child-process entries live. From the bundle (this code runs from `out/main/`)
 * they are the sibling `agent-runner.js` / `mcp-host.js` / `template-worker.js`; from sources they are the
 * TypeScript entries, run through tsx. `STEPWISE_RUNNER_ENTRY` / `STEPWISE_MCP_HOST_ENTRY`
 * override either.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function hereDir(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

/** True when this module was bundled into out/main/. */
function bundled(dir: string): boolean {
  return path.basename(dir) === 'main' && path.basename(path.dirname(dir)) === 'out';
}

/** Repository root when running from sources (main/core/process → three levels up). */
function sourceRoot(dir: string): string {
  return path.resolve(dir, '..', '..', '..');
}

function resolveEntry(bundleName: string, sourcePath: string, envName: string): string {
  const override = process.env[envName];
  if (override) return path.resolve(override);
  const dir = hereDir();
  if (bundled(dir)) return path.join(dir, bundleName);
  return path.join(sourceRoot(dir), sourcePath);
}

/** The agent-runner entry file (one process per run). */
export function runnerEntry(): string {
  return resolveEntry('agent-runner.js', 'agent-runner/index.ts', 'STEPWISE_RUNNER_ENTRY');
}

/** The mcp-host entry file (one long-lived process). */
export function mcpHostEntry(): string {
  return resolveEntry('mcp-host.js', 'mcp-host/index.ts', 'STEPWISE_MCP_HOST_ENTRY');
}

/** The template worker thread's entry (main/core/template-engine.ts). */
export function templateWorkerEntry(): string {
  return resolveEntry('template-worker.js', 'main/core/template-worker.ts', 'STEPWISE_TEMPLATE_WORKER_ENTRY');
}
