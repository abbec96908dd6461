/**
 * The disk as a SIGKILL at this instant would leave it, for tests that check what an answered
 * write left on disk (docs/architecture.md#edits-and-undo). Taken synchronously, so nothing of
 * an in-process host runs meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Copies `dir` to `to` (a new folder) synchronously. Files under `linked` (relative folders,
 * e.g. `workspace`) are hard links instead: the same inode and modification time, so a thread
 * file keeps the stamp its edit log names (open-thread.ts `fileStamp`) — safe because thread
 * files are only ever replaced (written atomically), never written in place, so a later write
 * by the host does not reach the link. Everything else is copied (edit logs and run journals
 * are appended in place).
 */
export function snapshotDir(dir: string, to: string, linked: string[] = []): void {
  const walk = (rel: string, link: boolean) => {
    const from = path.join(dir, rel);
    fs.mkdirSync(path.join(to, rel), { recursive: true });
    for (const e of fs.readdirSync(from, { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      const asLink = link || linked.includes(r);
      if (e.isDirectory()) walk(r, asLink);
      else if (e.isFile()) (asLink ? fs.linkSync : fs.copyFileSync)(path.join(dir, r), path.join(to, r));
    }
  };
  walk('', false);
}
