/**
 * The thread store's edit logs as a whole (one {@link EditLog} per open thread, in
 * `$STEPWISE_HOME/edits`): replaying the logs a stopped host left, at start and when a thread
 * is opened, and remembering what a client must hear about them — the edit ids already applied
 * (a resend after the restart is answered, not applied twice) and the logs put aside.
 */
import type { Thread } from '../../../shared/thread/schema';
import { HostError } from '../errors';
import { EditLog, logPath } from './edit-log';
import { recoverEditLogs, recoverOnOpen, type Recovery } from './edit-recovery';
import type { ThreadIO } from './thread-store-options';

export class EditLogs {
  /** Edit ids a recovery applied, per thread, until the thread is opened. */
  private readonly replayed = new Map<string, string[]>();
  /** Per thread: why some of its edits from before a crash were not applied. */
  private readonly notes = new Map<string, string[]>();

  /** `dir`: the edit-log folder; `log`: the host log (may name absolute paths). */
  constructor(
    readonly dir: string,
    private readonly io: ThreadIO,
    private readonly log?: (message: string, level?: 'info' | 'error') => void,
  ) {}

  /** At start, before any thread is opened: recover every log (edit-recovery.ts). */
  async recoverAll(): Promise<Recovery[]> {
    const out = await recoverEditLogs(this.dir, this.io);
    this.note(out);
    return out;
  }

  /**
   * Thread `doc` was loaded from `file` (absolute) when it had `stamp`: replay its logs onto the
   * file. Returns the document and stamp the file has now (changed when a replay saved it), the
   * edit ids already applied, and the thread's new log. Throws `edit_log` when a log can be neither replayed
   * nor put aside (opening would risk writing over it).
   */
  async open(file: string, doc: Thread, stamp: string | undefined): Promise<{ doc: Thread; stamp: string | undefined; editIds: string[]; log: EditLog }> {
    const r = await recoverOnOpen(this.dir, file, doc, stamp, this.io).catch((err: unknown) => {
      this.log?.(`${file}: could not replay or put aside its edit log: ${(err as Error).message}`);
      throw new HostError('edit_log', `thread ${doc.id} has edits from before Stepwise stopped that could be neither replayed nor put aside (${(err as NodeJS.ErrnoException).code ?? 'error'}); see the host log`);
    });
    this.note(r.recoveries);
    const editIds = this.replayed.get(doc.id) ?? [];
    this.replayed.delete(doc.id);
    return { doc: r.doc, stamp: r.stamp, editIds, log: new EditLog(logPath(this.dir, doc.id), doc.id, file) };
  }

  /** Why edits of `threadId` from before a crash were not applied (told to a client opening it). */
  notesOf(threadId: string): string[] {
    return this.notes.get(threadId) ?? [];
  }

  private note(list: Recovery[]): void {
    const add = (m: Map<string, string[]>, id: string, items: string[]) => m.set(id, [...(m.get(id) ?? []), ...items]);
    for (const r of list) {
      if (r.kind === 'applied' || r.kind === 'current') {
        add(this.replayed, r.threadId, r.editIds);
        if (r.kind === 'applied') this.log?.(`replayed ${r.edits} edit(s) to ${r.file} acknowledged before the host stopped`, 'info');
        for (const n of r.notes) this.log?.(`${r.log}: ${n}`);
      } else if (r.kind === 'aside') {
        const msg = `${r.edits} edit(s) to this thread, made before Stepwise stopped, were not applied: ${r.reason}. They are kept in ${r.aside} in the Stepwise home folder.`;
        if (r.threadId) add(this.notes, r.threadId, [msg]);
        this.log?.(`${r.file ?? r.log}: ${msg}`);
      } else {
        this.log?.(`${r.log}: left in place: ${r.reason}`);
      }
    }
  }
}
