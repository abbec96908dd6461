/**
 * Where remote MCP servers' OAuth credentials (registered client, tokens) are kept:
 * `$STEPWISE_HOME/settings/mcp-oauth.json`, mode 0600, one entry per server. With a
 * {@link KeyCodec} (the desktop shell's safeStorage) each entry is encrypted; without one
 * it is stored as it is (the file's mode is its only protection).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { McpOAuthCredentials } from '../../../shared/protocol/mcp';
import type { KeyCodec } from '../settings/providers';

/** The credentials file under `home`. */
export function oauthStorePath(home: string): string {
  return path.join(home, 'settings', 'mcp-oauth.json');
}

/** Reads and writes the credentials file; writes are serialised and atomic (temp file + rename). */
export class OAuthStore {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly home: string,
    private readonly codec?: KeyCodec,
  ) {}

  /**
   * Every server's credentials. A missing file is empty; an entry that cannot be opened (the
   * keychain changed, a broken file) is left out, so that server signs in again.
   */
  async load(): Promise<Record<string, McpOAuthCredentials>> {
    let raw: unknown;
    try {
      raw = JSON.parse(await fs.readFile(oauthStorePath(this.home), 'utf8'));
    } catch {
      return {};
    }
    const out: Record<string, McpOAuthCredentials> = {};
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
    for (const [name, v] of Object.entries(raw as Record<string, unknown>)) {
      try {
        const opened = typeof v === 'string' && this.codec ? JSON.parse(this.codec.decrypt(v)) : v;
        if (opened && typeof opened === 'object' && !Array.isArray(opened)) out[name] = opened as McpOAuthCredentials;
      } catch {
        // Cannot be opened here: the server signs in again.
      }
    }
    return out;
  }

  /** Stores `credentials` for `server` (the others are kept). */
  save(server: string, credentials: McpOAuthCredentials): Promise<void> {
    this.writing = this.writing.then(async () => {
      const all = await this.load();
      all[server] = credentials;
      const stored: Record<string, unknown> = {};
      for (const [name, c] of Object.entries(all)) stored[name] = this.codec ? this.codec.encrypt(JSON.stringify(c)) : c;
      const file = oauthStorePath(this.home);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, JSON.stringify(stored, null, 2), { mode: 0o600 });
      await fs.rename(tmp, file);
      await fs.chmod(file, 0o600);
    });
    const done = this.writing;
    this.writing = done.catch(() => {});
    return done;
  }
}
