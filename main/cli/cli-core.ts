/**
 * A host core for a command-line process (`eval`, `worker`): runner processes through a
 * NodeSpawner, MCP servers through an mcp-host started for it, settings from the home. A new
 * home gets the bundled `everything` server, as with `serve`.
 */
import path from 'node:path';
import { createHostCore, defaultHome, type HostCore } from '../core/host-core';
import { NodeSpawner } from '../core/process/node-spawner';
import { mcpHostEntry } from '../core/process/entries';
import { McpService } from '../core/mcp/service';
import { seedMcpConfig } from '../web/seed';

/** A started core and how to stop it (cancels live runs, saves, stops the mcp-host). */
export interface CliCore {
  core: HostCore;
  close(): Promise<void>;
}

/** What a command may set of its core. */
export interface CliCoreOptions {
  /** How long an idle pooled runner process waits for its next run (ms); see HostCoreOptions. */
  runnerPoolIdleMs?: number;
}

/** Starts a core on `home` (default $STEPWISE_HOME or ~/.stepwise); `tag` prefixes its stderr lines. */
export async function startCliCore(home: string | undefined, tag: string, options: CliCoreOptions = {}): Promise<CliCore> {
  const dir = path.resolve(home ?? defaultHome());
  const say = (line: string) => process.stderr.write(`${tag}: ${line}\n`);
  await seedMcpConfig(dir, say, { migrate: true });
  const spawner = new NodeSpawner({ detached: true, stdout: 'pipe' });
  const mcp = new McpService({ home: dir, spawner, entry: mcpHostEntry() });
  const log = (level: string, message: string): void => {
    if (level === 'warn' || level === 'error') say(`${level}: ${message}`);
  };
  const core = await createHostCore({ home: dir, spawner, mcp, mcpRelay: mcp, log, runnerPoolIdleMs: options.runnerPoolIdleMs });
  return {
    core,
    async close() {
      await core.close();
      await mcp.close();
    },
  };
}
