/**
 * The thread store's Yjs side (docs/architecture.md#multi-window-editing): the document of each
 * open thread that windows join (`thread.sync`) and change (`thread.update`), and its encoded
 * state saved beside the thread's run files with each save (ydoc-state.ts), so the document —
 * and its id — outlives a host restart or a thread let go and opened again, as long as the JSON
 * is the one saved with it. The store (thread-store.ts) owns the JSON, its checks, log and saves.
 */
import { isDeepStrictEqual } from 'node:util';
import * as Y from 'yjs';
import type { Patch } from 'immer';
import { HostError } from '../errors';
import { docHash } from './edit-log';
import type { OpenThread } from './open-thread';
import { HostYDoc } from './thread-ydoc';
import { readYState, writeYState, type SavedYState } from './ydoc-state';
import type { ThreadStoreOptions } from './thread-store-options';

/** What the Yjs side uses of the store. */
export interface StoreSide {
  /** Apply a window's checked patches as the next version (throws to refuse them). */
  commit(t: OpenThread, patches: Patch[], origin: string): { version: number; logged: Promise<void> };
  /** Resolves once that version is on disk. */
  onDisk(t: OpenThread, r: { version: number; logged: Promise<void> }): Promise<void>;
}

/** Paths a window may not change. */
const LOCKED = new Set(['id', 'version']);

/** Saved states read at open, by thread, until the document is made. */
const saved = new WeakMap<OpenThread, SavedYState>();

/** The Yjs documents of a store's open threads. */
export class ThreadYjs {
  constructor(
    private readonly opts: ThreadStoreOptions,
    private readonly store: StoreSide,
  ) {}

  /** Read the state saved for `t` (at open), taken when the document is first made and still matches. */
  async load(t: OpenThread): Promise<void> {
    if (!this.opts.yStateDir || t.memory) return;
    const s = await readYState(this.opts.yStateDir, t.doc.id, (m) => this.opts.log?.(m));
    if (s) saved.set(t, s);
  }

  /** The document of `t`, made on first use: from its saved state when that was saved with this JSON, else from the JSON. */
  doc(t: OpenThread): HostYDoc {
    if (t.y) return t.y;
    const relay = (update: Uint8Array, origin: string, except?: string) =>
      this.opts.onUpdate?.({ v: 1, type: 'thread_update', threadId: t.doc.id, docId: t.y!.id, update: Buffer.from(update).toString('base64'), origin }, except);
    const s = saved.get(t);
    saved.delete(t);
    if (s && s.hash === docHash(t.doc)) {
      try {
        const y = new HostYDoc(t.doc, relay, s);
        if (isDeepStrictEqual(y.thread(), t.doc)) return (t.y = y);
        y.destroy();
        this.opts.log?.(`the saved Yjs state of thread ${t.doc.id} does not hold its JSON; rebuilt from the JSON`);
      } catch (err) {
        this.opts.log?.(`the saved Yjs state of thread ${t.doc.id} does not apply (${(err as Error).message}); rebuilt from the JSON`);
      }
    }
    return (t.y = new HostYDoc(t.doc, relay));
  }

  /** What a document at state vector `sv` lacks, the host's state vector, the document's id and the thread's version. */
  sync(t: OpenThread, sv: Uint8Array): { update: Uint8Array; stateVector: Uint8Array; docId: string; version: number } {
    const y = this.doc(t);
    return { update: y.state(sv), stateVector: Y.encodeStateVector(y.doc), docId: y.id, version: t.version };
  }

  /** A window's update (ThreadStore.update). */
  async update(t: OpenThread, docId: string, bytes: Uint8Array, origin: string): Promise<{ version: number }> {
    const threadId = t.doc.id;
    if (!t.y || t.y.id !== docId) throw new HostError('stale_doc', `thread ${threadId}'s document is not the one the update was made on; sync again`);
    let r: { version: number; logged: Promise<void> } | undefined;
    t.y.receive(bytes, origin, (patches) => {
      if (this.opts.isRunning?.(threadId)) throw new HostError('read_only', `thread ${threadId} is read-only while its run is running; the change was undone`);
      const locked = patches.find((p) => p.path.length === 1 && LOCKED.has(String(p.path[0])));
      if (locked) throw new HostError('invalid_edit', `the update changes /${locked.path[0]}, which cannot be edited; the change was undone`);
      if (patches.length) r = this.store.commit(t, patches, origin);
    });
    if (!r) return { version: t.version };
    await this.store.onDisk(t, r);
    return { version: r.version };
  }

  /**
   * Taken at the moment a save takes the JSON `doc` (the document holds it then): the write of
   * the document's state tagged with its hash, to run once the JSON is written; undefined when
   * there is nothing to write.
   */
  snapshot(t: OpenThread, doc: OpenThread['doc']): (() => Promise<void>) | undefined {
    const dir = this.opts.yStateDir;
    if (!dir || !t.y || t.memory) return undefined;
    const state: SavedYState = { docId: t.y.id, hash: docHash(doc), update: Y.encodeStateAsUpdate(t.y.doc) };
    const threadId = doc.id;
    return () => writeYState(dir, threadId, state).catch((err: Error) => this.opts.log?.(`could not save the Yjs state of thread ${threadId}: ${err.message}`));
  }
}
