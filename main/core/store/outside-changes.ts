/**
 * Following an open thread's file for changes made outside the host: the store's
 * watch of each open file, and the comparison of what the file holds with what the store last
 * read or wrote. A change that loads as the same thread becomes a new version (origin `file`,
 * one patch per changed field); a file that does not load is reported and not saved over.
 */
import type { Patch } from 'immer';
import type { Thread } from '../../../shared/thread/schema';
import { watchFile } from './file-watch';
import { fieldPatches, sameDoc } from './external-edit';
import { fileStamp, type OpenThread } from './open-thread';
import type { ThreadStoreOptions } from './thread-store-options';

/** What the store lends: applying a change taken from the file, and scheduling a save. */
export interface OutsideHost {
  /** Apply `patches` as the next version with `origin`, neither saved nor logged. Throws when they do not apply. */
  commit(t: OpenThread, patches: Patch[], origin: string): void;
  scheduleSave(t: OpenThread): void;
}

export class OutsideChanges {
  constructor(
    private readonly opts: Pick<ThreadStoreOptions, 'io' | 'watch' | 'log' | 'onFileProblem'>,
    private readonly host: OutsideHost,
  ) {}

  /** Watch `t`'s file (with the `watch` option). */
  start(t: OpenThread): void {
    if (!this.opts.watch) return;
    const debounceMs = typeof this.opts.watch === 'object' ? this.opts.watch.debounceMs : undefined;
    const file = t.file;
    try {
      t.watch = watchFile(file, () => this.check(t), {
        debounceMs,
        onError: (err) => {
          if (t.watch) this.opts.log?.(`stopped watching ${file}: ${err.message}`);
          t.watch = undefined;
        },
      });
    } catch (err) {
      this.opts.log?.(`cannot watch ${file} for changes made outside Stepwise: ${(err as Error).message}`);
    }
  }

  /** Stop watching `t`'s file. */
  stop(t: OpenThread): void {
    const w = t.watch;
    t.watch = undefined;
    w?.close();
  }

  /** The watcher saw the file change: read it after the saves already queued. */
  check(t: OpenThread): void {
    t.saving = t.saving
      .then(() => this.reconcile(t))
      .catch((err: unknown) => this.opts.log?.(`could not read ${t.file}: ${(err as Error).message}`));
  }

  /**
   * Compare the file with what the store last read or wrote. Another content that loads as this
   * thread becomes a new version (origin `file`): the fields changed on disk replace those of the
   * open copy, whose edits not saved yet stay on top. A file that does not load marks the thread
   * broken (reported once per problem) until it loads again. `fromSave`: the save that called
   * it writes next, so no save is scheduled here. `origin`: who changed the file; other than
   * `file` (the host itself, ThreadStore.relocate), the change is taken under that origin and
   * not logged as a change made outside.
   */
  async reconcile(t: OpenThread, fromSave = false, origin = 'file'): Promise<void> {
    let found: Thread;
    const stamp = await fileStamp(t.file);
    try {
      found = await this.opts.io.load(t.file);
    } catch (err) {
      if (t.watch) this.setProblem(t, (err as Error).message);
      return;
    }
    if (!t.watch) return; // released meanwhile
    if (found.id !== t.doc.id) {
      this.setProblem(t, `${t.file}: /id: the thread id changed from ${t.doc.id} to ${found.id} while the thread was open; change it back, or close the thread and open the file again`);
      return;
    }
    const wasBroken = !!t.broken;
    this.setProblem(t, undefined);
    const restamped = stamp !== t.stamp;
    t.stamp = stamp;
    if (sameDoc(found, t.disk)) {
      // The store's own write, or no change; edits held while the file was broken go out now.
      // The same content written again (a new stamp) is where the edit log now starts from.
      if (restamped) await this.restartLog(t, found, stamp);
      if (wasBroken && t.dirty && !fromSave) this.host.scheduleSave(t);
      return;
    }
    const base = t.disk;
    t.disk = found;
    const merged = fieldPatches(base, found, t.doc);
    try {
      if (merged.length) this.host.commit(t, merged, origin);
    } catch {
      // The open copy's unsaved edits do not fit the new file: the file wins.
      const whole = fieldPatches(t.doc, found);
      if (whole.length) this.host.commit(t, whole, origin);
    }
    if (origin === 'file') this.opts.log?.(`took the changes made to ${t.file} outside Stepwise (now version ${t.version})`, 'info'); // expected, not a fault
    const unsaved = await this.restartLog(t, found, stamp);
    if (unsaved && !fromSave) this.host.scheduleSave(t);
  }

  /**
   * The file (now `stamp`) holds `found`: restart the edit log from it, plus the open copy's
   * changes not saved yet. Returns whether there are such changes.
   */
  private async restartLog(t: OpenThread, found: Thread, stamp: string | undefined): Promise<boolean> {
    const unsaved = fieldPatches(found, t.doc);
    if (!unsaved.length) t.savedVersion = t.version;
    await t.log?.rebase(t.version, stamp, unsaved).catch((err: Error) => this.opts.log?.(`could not rewrite the edit log of ${t.file}: ${err.message}`));
    return unsaved.length > 0;
  }

  private setProblem(t: OpenThread, problem: string | undefined): void {
    if (t.broken === problem) return;
    t.broken = problem;
    if (problem) this.opts.log?.(`${problem} (not saving over it until it is fixed)`);
    this.opts.onFileProblem?.({ threadId: t.doc.id, file: t.file, problem });
  }
}
