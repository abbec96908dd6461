/**
 * The exchange of one open thread's Yjs document with the host
 * (docs/architecture.md#multi-window-editing): every local transaction goes out at once as a
 * `thread.update`, every `thread_update` push comes in; any order of delivery converges, so
 * there is no version to match and nothing to rebase. The host answers a refused update with
 * `read_only` / `invalid_edit` and sends its revert as a push; the error is shown. After a
 * lost connection the window syncs again (`thread.sync`: what it lacks comes in, what the
 * host lacks goes out). An update made on another host document (the host restarted, or let
 * the thread go) is `stale_doc`: the thread is loaded again.
 */
import * as Y from 'yjs';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadUpdate } from '../../../shared/protocol/envelopes';
import type { HostServices } from '../host/types';
import { HostCallError } from '../host/types';
import type { ThreadMeta } from './thread-meta';
import { RunOrigin } from './undo';

/** The origin of an update from the host that is not a run's result. */
export const REMOTE = Symbol('remote');

/** The host's answer to `thread.open`, as a session starts from it. */
export interface OpenedThread {
  thread: Thread;
  version: number;
  path: string;
  /** The run of this thread that is running, if any. */
  running?: string;
  /** The `origin` of this window's own edits. */
  origin?: string;
  /** The host's Yjs document (thread.open with `yjs`); absent in the viewer. */
  yjs?: { update: string; stateVector: string; docId: string; version: number };
}

/** What the sync reads and changes of the session it serves. */
export interface SyncedSession {
  id(): string;
  path(): string;
  doc(): Y.Doc;
  /** Publish the meta after a change. */
  setMeta(patch: Partial<ThreadMeta>): void;
  /** Start again from the host's copy (a new document; the undo history goes). */
  restart(opened: OpenedThread): void;
}

/** Base64 of bytes, and back (the web host's frames are JSON). */
export function toBase64(u: Uint8Array): string {
  let s = '';
  for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
  return btoa(s);
}
export function fromBase64(s: string): Uint8Array {
  const b = atob(s);
  const u = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
  return u;
}

/** The size of a Yjs update that holds nothing (no structs, no deletions). */
const EMPTY_UPDATE_BYTES = 2;

/** One open thread's updates on their way to the host, and the host's on their way in. */
export class ThreadSync {
  /** The host document this window's document is a peer of. */
  docId: string;
  /** The highest thread version the host answered. */
  version: number;
  private inFlight = 0;

  constructor(
    private readonly host: HostServices,
    private readonly session: SyncedSession,
    opened: OpenedThread,
  ) {
    this.docId = opened.yjs?.docId ?? '';
    this.version = opened.yjs?.version ?? opened.version;
  }

  /** No update of this window is on its way to the host. */
  get settled(): boolean {
    return this.inFlight === 0;
  }

  /** Send a local update. */
  send(update: Uint8Array): void {
    if (this.host.presentational || !this.docId) return;
    this.inFlight++;
    const docId = this.docId;
    this.host
      .call('thread.update', { threadId: this.session.id(), docId, update: toBase64(update) })
      .then(
        (r) => {
          this.version = Math.max(this.version, r.version);
          this.session.setMeta({ error: undefined });
        },
        (err: unknown) => this.failed(err, docId),
      )
      .finally(() => {
        this.inFlight--;
        this.session.setMeta({});
      });
  }

  private failed(err: unknown, docId: string): void {
    const code = err instanceof HostCallError ? err.code : undefined;
    const message = (err as Error).message;
    if (docId !== this.docId) return; // made on a document the window has since left
    if (code === 'stale_doc') {
      void this.reload();
      return;
    }
    if (code === 'disconnected' || code === 'session_ended') {
      this.session.setMeta({ error: { message: `This edit is not saved: ${message}` } });
      return;
    }
    // Refused: the host's revert comes as a push; say why.
    this.session.setMeta({ error: { message: `The edit was not saved: ${message}`, details: (err as Error).stack } });
  }

  /** A `thread_update` from the host: applied (a run's result with its origin, for undo). */
  applyRemote(push: ThreadUpdate): void {
    if (push.threadId !== this.session.id()) return;
    if (push.docId !== this.docId) {
      void this.reload();
      return;
    }
    const origin = push.origin.startsWith('run:') ? new RunOrigin(push.origin.slice(4)) : REMOTE;
    Y.applyUpdate(this.session.doc(), fromBase64(push.update), origin);
  }

  /**
   * The connection came back: updates pushed meanwhile may be lost, so join again (what this
   * window lacks comes in, what the host lacks goes out). A host that restarted has the thread
   * no longer open for this window: it is opened again, and when the host kept its document
   * (its saved state matched the file: docs/architecture.md#multi-window-editing, step 3) the
   * window's unsent edits are merged the same way; otherwise the thread is loaded again.
   */
  async resync(): Promise<void> {
    if (this.host.presentational || !this.docId) return;
    const doc = this.session.doc();
    try {
      const r = await this.host.call('thread.sync', { threadId: this.session.id(), stateVector: toBase64(Y.encodeStateVector(doc)) });
      if (r.docId !== this.docId) return void (await this.reload());
      this.merge(r);
    } catch (err) {
      if (!(err instanceof HostCallError)) return;
      if (err.code === 'not_open') await this.reopen();
      else if (err.code === 'stale_doc') await this.reload();
    }
  }

  /** Apply what the host sent and send what it lacks (by its state vector). */
  private merge(r: { update: string; stateVector: string }): void {
    const doc = this.session.doc();
    Y.applyUpdate(doc, fromBase64(r.update), REMOTE);
    const missing = Y.encodeStateAsUpdate(doc, fromBase64(r.stateVector));
    if (missing.length > EMPTY_UPDATE_BYTES) this.send(missing);
  }

  /** Open the thread again on a host that forgot it: merged when it is the same document, else a new session document. */
  private async reopen(): Promise<void> {
    let r: OpenedThread;
    try {
      r = await this.host.call('thread.open', { path: this.session.path(), yjs: true });
    } catch (err) {
      this.session.setMeta({ error: { message: `Could not reload ${this.session.path()}: ${(err as Error).message}`, details: (err as Error).stack } });
      return;
    }
    if (!r.yjs || r.yjs.docId !== this.docId || r.thread.id !== this.session.id()) {
      this.docId = r.yjs?.docId ?? '';
      this.version = r.version;
      this.session.restart(r);
      this.session.setMeta({ path: r.path, runningRunId: r.running, error: undefined });
      return;
    }
    this.version = Math.max(this.version, r.version);
    this.merge(r.yjs);
    this.session.setMeta({ path: r.path, runningRunId: r.running, error: undefined });
  }

  /** Take the session up again from the host's copy `opened`: true when it is the same host document. */
  resume(opened: OpenedThread): boolean {
    if (!opened.yjs || opened.yjs.docId !== this.docId || opened.thread.id !== this.session.id()) return false;
    Y.applyUpdate(this.session.doc(), fromBase64(opened.yjs.update), REMOTE);
    this.session.setMeta({ path: opened.path, runningRunId: opened.running, error: undefined });
    return true;
  }

  /** Load the host's copy again, as a new document (the undo history goes). */
  async reload(): Promise<void> {
    try {
      const r = await this.host.call('thread.open', { path: this.session.path(), yjs: true });
      this.docId = r.yjs?.docId ?? '';
      this.version = r.version;
      this.session.restart(r);
      this.session.setMeta({ path: r.path, runningRunId: r.running, error: undefined });
    } catch (err) {
      this.session.setMeta({ error: { message: `Could not reload ${this.session.path()}: ${(err as Error).message}`, details: (err as Error).stack } });
    }
  }
}
