/**
 * `stepwise serve`: the host core behind the web host, on a home seeded with the examples.
 * Prints the URL (with the per-launch token) and opens it unless told not to.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createHostCore, defaultHome, type HostCore } from '../core/host-core';
import { NodeSpawner } from '../core/process/node-spawner';
import { mcpHostEntry } from '../core/process/entries';
import { McpService } from '../core/mcp/service';
import { WorkspaceStore } from '../core/workspace/workspace-store';
import { startWebHost, type WebHost } from './server';
import { OAUTH_CALLBACK_PATH } from './oauth-callback';
import { examplesDir, rendererDir, seedExampleRuns, seedMcpConfig } from './seed';

export interface LaunchOptions {
  home?: string;
  host?: string;
  port?: number;
  token?: string;
  /** Open the URL in the default browser. */
  open?: boolean;
  /** Seed an empty workspace with the examples and a missing mcp.json with `everything`. */
  seed?: boolean;
  log?: (line: string) => void;
  /** How long after an edit a thread is saved, ms (default the host core's, 300). */
  saveDebounceMs?: number;
}

export interface Launched {
  core: HostCore;
  web: WebHost;
  mcp: McpService;
  close(): Promise<void>;
}

export async function launchWebHost(o: LaunchOptions = {}): Promise<Launched> {
  const home = path.resolve(o.home ?? defaultHome());
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const workspace = new WorkspaceStore(path.join(home, 'workspace'));
  if (o.seed !== false) {
    // Seeding is a convenience: a failure is said, and the app starts anyway.
    await seedMcpConfig(home, (line) => log(`[stepwise] ${line}`)).catch((err: Error) => log(`[stepwise] could not write settings/mcp.json: ${err.message}`));
    const ex = examplesDir();
    if (ex) {
      await workspace
        .seedExamples(ex)
        .then((created) => (created.length ? seedExampleRuns(ex, home) : undefined))
        .catch((err: Error) => log(`[stepwise] could not copy the examples: ${err.message}`));
    }
  }
  const spawner = new NodeSpawner();
  const mcp = new McpService({ home, spawner, entry: mcpHostEntry(), connectInBackground: true });
  const core: HostCore = await createHostCore({ home, spawner, mcp, mcpRelay: mcp, workspace, watchWorkspace: true, saveDebounceMs: o.saveDebounceMs });
  const web = await startWebHost({
    core,
    staticDir: rendererDir(),
    host: o.host,
    port: o.port,
    token: o.token,
    log,
    oauthCallback: (q) => mcp.authCallback(q),
  });
  // MCP servers that need a sign-in send the browser back to this host (`/oauth/callback`).
  await mcp.setOAuthRedirect(`${new URL(web.url).origin}${OAUTH_CALLBACK_PATH}`);
  if (o.open) openInBrowser(web.url);
  return {
    core,
    web,
    mcp,
    close: async () => {
      await web.close();
      await core.close();
      await mcp.close?.();
    },
  };
}

/** Best effort: the platform's opener; silently nothing where there is none. */
function openInBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {}
}
