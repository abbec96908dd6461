/**
 * First start of the desktop app: the same settings/mcp.json seed as the web host
 * (main/web/seed.ts). Its `everything` server is bundled with Stepwise and runs inside the
 * mcp-host, so nothing asks the app's executable to run a script as Node — the packaged app's
 * `runAsNode` fuse is off (electron-builder.yml). An entry an earlier version seeded as
 * `<app> <script>` with `ELECTRON_RUN_AS_NODE` is migrated to the bundled one.
 */
import { seedMcpConfig } from '../web/seed';

/**
 * Writes settings/mcp.json (mode 0600) with the bundled `everything` server when there is none
 * yet, or migrates an older seeded entry (`notice` gets a line saying what changed). `installed`
 * overrides whether server-everything is installed (tests). Returns whether it wrote a new file.
 */
export function seedDesktopMcpConfig(home: string, notice?: (line: string) => void, o: { installed?: boolean } = {}): Promise<boolean> {
  return seedMcpConfig(home, notice, o);
}
