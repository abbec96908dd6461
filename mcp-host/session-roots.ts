/**
 * The roots one MCP server session offers (`roots/list`): the working folders of the run it
 * serves. When they change on a live connection the server is told
 * (`notifications/roots/list_changed`) and, if it asks for roots, given a moment to fetch
 * them before the call that follows goes out.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';

/** The part of the SDK `Client` roots need. */
interface RootsClient {
  sendRootsListChanged(): Promise<void>;
}

/** A session's roots, and whether its server has asked for them. */
export class SessionRoots {
  private list: string[] = [];
  private waiters: (() => void)[] = [];
  /** The server asked for roots at least once (so it will ask again after list_changed). */
  private aware = false;

  /** The roots, absolute paths. */
  paths(): string[] {
    return [...this.list];
  }

  /** The answer to `roots/list`: each root as a file: URI and its folder name. Wakes those waiting for it. */
  answer(): { roots: { uri: string; name: string }[] } {
    this.aware = true;
    const roots = this.list.map((p) => ({ uri: pathToFileURL(p).href, name: path.basename(p) || p }));
    const waiters = this.waiters;
    this.waiters = [];
    // Let the server apply the answer before the call that waits for it goes out.
    setTimeout(() => waiters.forEach((w) => w()), 30);
    return { roots };
  }

  /**
   * Makes `roots` the roots answered on `roots/list` (undefined: unchanged). When they change
   * and `client` is connected, sends `notifications/roots/list_changed` and, if the server asks
   * for roots, waits (≤ 1 s) until it has been answered, so the call that follows sees them.
   */
  async set(roots: string[] | undefined, client: RootsClient | undefined): Promise<void> {
    if (!roots) return;
    const same = roots.length === this.list.length && roots.every((r, i) => r === this.list[i]);
    if (same) return;
    this.list = [...roots];
    if (!client) return;
    const answered = this.waitAnswered(this.aware ? 1000 : 0);
    await client.sendRootsListChanged().catch(() => {});
    await answered;
  }

  /** After a fresh connect with roots: give the server (≤ 500 ms) to fetch them. */
  async settle(fresh: boolean): Promise<void> {
    if (fresh && this.list.length > 0 && !this.aware) await this.waitAnswered(500);
  }

  private waitAnswered(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
  }
}
