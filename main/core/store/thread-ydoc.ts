/**
 * The host's Yjs document of one open thread (docs/architecture.md#multi-window-editing): windows
 * are its peers. The host stays the authority. A window's update is applied, read back as
 * Immer patches (shared/thread/y-events.ts) and handed to the store's check; only once the
 * check passes is it relayed to the other windows. One the check refuses (a run runs, the
 * thread would be invalid), or one that is not an update of this document, is reverted by a
 * host transaction; the update and its revert go to every window, so the sender's document
 * comes back too. The host's own changes (edits by patches, runs' results, the file changed
 * outside) are applied by {@link HostYDoc.mirror} as host transactions and sent to every window.
 */
import * as Y from 'yjs';
import type { Patch } from 'immer';
import type { Thread } from '../../../shared/thread/schema';
import { newThreadDoc, rootList, threadTypes, yToThread } from '../../../shared/thread/y-thread';
import { applyPatchesToY } from '../../../shared/thread/y-patches';
import { observePatches } from '../../../shared/thread/y-events';
import { HostError } from '../errors';

/** The origin of a window's update while it is checked (`by`: `client:<id>`). */
class Incoming {
  constructor(readonly by: string) {}
}

/** The origin of a host transaction (`by`: `run:<id>`, `file`, `host`, `client:<id>` for an edit by patches). */
class HostChange {
  constructor(readonly by: string) {}
}

/** Where the document's updates go: `except` names the origin whose window already has it. */
export type Relay = (update: Uint8Array, origin: string, except?: string) => void;

/** One open thread's Yjs document on the host. */
export class HostYDoc {
  readonly doc: Y.Doc;
  /** Tracks the update being checked, so a refused one can be reverted. */
  private readonly checker: Y.UndoManager;
  private readonly roots: Set<Y.AbstractType<any>>;
  /** The updates of the transaction being checked (and of its revert), relayed once it is decided. */
  private held: Uint8Array[] | null = null;
  /** The patches the checked update made. */
  private patches: Patch[] = [];
  private readonly stop: () => void;

  /**
   * The document of `thread`, or, given `saved` (its state saved with this JSON: ydoc-state.ts),
   * that document again, with its id, so windows that were its peers stay peers.
   */
  constructor(thread: Thread, private readonly relay: Relay, saved?: { docId: string; update: Uint8Array }) {
    if (saved) {
      this.doc = new Y.Doc({ guid: saved.docId });
      Y.applyUpdate(this.doc, saved.update, new HostChange('host'));
    } else this.doc = newThreadDoc(thread, new HostChange('host'));
    this.roots = new Set(rootList(threadTypes(this.doc)));
    this.checker = new Y.UndoManager([...this.roots], { trackedOrigins: new Set([Incoming]), captureTimeout: 0 });
    this.stop = observePatches(this.doc, (patches, tr) => {
      if (tr.origin instanceof Incoming) this.patches.push(...patches);
    });
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (this.held) this.held.push(update);
      else this.relay(update, origin instanceof HostChange ? origin.by : 'host');
    });
  }

  /** The document's id (a window's updates must be made on it). */
  get id(): string {
    return this.doc.guid;
  }

  /** The update that brings a document at state vector `sv` (empty: none) up to this one. Throws `bad_request` for a state vector that does not decode. */
  state(sv: Uint8Array): Uint8Array {
    try {
      return sv.length ? Y.encodeStateAsUpdate(this.doc, sv) : Y.encodeStateAsUpdate(this.doc);
    } catch (err) {
      throw new HostError('bad_request', `thread.sync: /stateVector: not a Yjs state vector (${(err as Error).message})`);
    }
  }

  /**
   * Carry the host's own change (Immer patches already applied to the JSON, origin `by`) into
   * the document, as one host transaction sent to every window. A patch whose path the
   * document lacks (it should not happen: the JSON and the document agree) makes the document
   * take `after` whole, field by field, its texts diffed.
   */
  mirror(patches: readonly Patch[], by: string, after: Thread, before?: Thread): void {
    try {
      this.doc.transact(() => applyPatchesToY(this.doc, patches, before, after), new HostChange(by));
    } catch {
      const whole: Patch[] = Object.entries(after).map(([k, value]) => ({ op: 'replace', path: [k], value }));
      this.doc.transact(() => applyPatchesToY(this.doc, whole), new HostChange(by));
    }
  }

  /**
   * Apply window `by`'s update. `check` gets the patches it made on the thread JSON (none for
   * an update already known) and throws to refuse it; then the update is reverted and the
   * error thrown. Throws `invalid_edit` for bytes that are not an update of this document
   * (nothing stays applied). On success the update is relayed to the other windows.
   */
  receive(update: Uint8Array, by: string, check: (patches: Patch[]) => void): void {
    this.held = [];
    this.patches = [];
    this.checker.clear();
    try {
      try {
        Y.applyUpdate(this.doc, update, new Incoming(by));
      } catch (err) {
        throw new HostError('invalid_edit', `not a Yjs update of thread ${this.id}: ${(err as Error).message}`);
      }
      const store = this.doc.store;
      if (store.pendingStructs || store.pendingDs) {
        store.pendingStructs = null;
        store.pendingDs = null;
        throw new HostError('stale_doc', `the update builds on changes thread ${this.id}'s document does not hold (made on an older copy); sync again`);
      }
      if (this.doc.share.size > this.roots.size) throw new HostError('invalid_edit', 'the update adds a part a thread does not have');
      check(this.patches);
    } catch (err) {
      this.revert();
      throw err;
    } finally {
      this.checker.clear();
    }
    const held = this.held;
    this.held = null;
    if (held.length) this.relay(held.length === 1 ? held[0] : Y.mergeUpdates(held), by, by);
  }

  /** Undo the checked update (a host transaction) and send it with its revert to every window. */
  private revert(): void {
    this.checker.undo();
    for (const [name, type] of this.doc.share) {
      if (this.roots.has(type)) continue;
      this.doc.transact((tr) => {
        for (let n = type._start; n; n = n.right) if (!n.deleted) n.delete(tr);
        for (const n of type._map.values()) if (!n.deleted) n.delete(tr);
      }, new HostChange('host'));
      this.doc.share.delete(name);
    }
    const held = this.held ?? [];
    this.held = null;
    if (held.length) this.relay(Y.mergeUpdates(held), 'host');
  }

  /** The thread the document holds (for checks in tests). */
  thread(): Thread {
    return yToThread(this.doc);
  }

  /** Stop observing; the document is dropped with the open thread. */
  destroy(): void {
    this.stop();
    this.checker.destroy();
    this.doc.destroy();
  }
}
