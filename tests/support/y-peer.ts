/**
 * A window as a Yjs peer of the host, for tests (docs/architecture.md#multi-window-editing):
 * over a real WebSocket client it opens a thread, joins its document with `thread.sync`, sends
 * each local transaction as `thread.update` and applies every `thread_update` push.
 */
import * as Y from 'yjs';
import type { ThreadUpdate } from '../../shared/protocol/envelopes';
import type { Thread } from '../../shared/thread/schema';
import { threadTypes, yToThread, type ThreadTypes } from '../../shared/thread/y-thread';
import type { WsClient } from './ws-client';

const REMOTE = Symbol('remote');
const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/** One window's document of an open thread. */
export class YPeer {
  readonly doc = new Y.Doc();
  readonly y: ThreadTypes = threadTypes(this.doc);
  docId = '';
  threadId = '';
  /** Every answer (or error) of this peer's `thread.update`s, in order. */
  readonly answers: Promise<{ version: number }>[] = [];
  private seen = 0;
  /** Updates made while paused (as if the connection were slow), sent by {@link resume}. */
  private held: Uint8Array[] | null = null;

  constructor(public client: WsClient) {
    client.ws.on('message', () => this.takePushes());
  }

  /** Open `path` and join its document. */
  async open(path: string): Promise<Thread> {
    const opened = await this.client.call<{ thread: Thread }>('thread.open', { path });
    this.threadId = opened.thread.id;
    const r = await this.client.call<{ update: string; docId: string }>('thread.sync', { threadId: this.threadId, stateVector: '' });
    this.docId = r.docId;
    Y.applyUpdate(this.doc, unb64(r.update), REMOTE);
    this.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin === REMOTE) return;
      if (this.held) this.held.push(u);
      else this.answers.push(this.send(u));
    });
    return opened.thread;
  }

  /** Send raw bytes as an update of this peer's thread. */
  send(update: Uint8Array): Promise<{ version: number }> {
    return this.client.call('thread.update', { threadId: this.threadId, docId: this.docId, update: b64(update) });
  }

  /** Keep local updates back (the window types, the host does not hear of it yet). */
  pause(): void {
    this.held ??= [];
  }

  /** Send what was kept back, as one update; resolves with the host's answer. */
  resume(): Promise<{ version: number }> {
    const held = this.held ?? [];
    this.held = null;
    const p = this.send(Y.mergeUpdates(held));
    this.answers.push(p);
    return p;
  }

  /** Change the document in one local transaction (sent to the host); resolves with the host's answer. */
  edit(change: (y: ThreadTypes) => void): Promise<{ version: number }> {
    const before = this.answers.length;
    this.doc.transact(() => change(this.y));
    return this.answers[before] ?? Promise.resolve({ version: -1 });
  }

  /** Apply the thread_update pushes that arrived since the last call. */
  takePushes(): void {
    const pushes = this.client.pushes;
    for (; this.seen < pushes.length; this.seen++) {
      const p = pushes[this.seen] as ThreadUpdate;
      if (p.type === 'thread_update' && p.threadId === this.threadId && p.docId === this.docId) Y.applyUpdate(this.doc, unb64(p.update), REMOTE);
    }
  }

  /**
   * The window reconnects over `client` (the host may have restarted) and joins again as the
   * renderer does: opens `path`, then `thread.sync` with its state vector; on the same document
   * (same id) it applies what it lacks and sends what the host lacks, its updates kept back
   * included. Resolves with the document id the host answered and, when it sent any, the
   * answer to its missing update.
   */
  async rejoin(client: WsClient, path: string): Promise<{ docId: string; sent?: { version: number } }> {
    this.client = client;
    this.seen = 0;
    this.held = null;
    client.ws.on('message', () => this.takePushes());
    await client.call('thread.open', { path });
    const sv = b64(Y.encodeStateVector(this.doc));
    const r = await client.call<{ update: string; stateVector: string; docId: string }>('thread.sync', { threadId: this.threadId, stateVector: sv });
    if (r.docId !== this.docId) return { docId: r.docId };
    Y.applyUpdate(this.doc, unb64(r.update), REMOTE);
    const missing = Y.encodeStateAsUpdate(this.doc, unb64(r.stateVector));
    if (missing.length <= 2) return { docId: r.docId };
    const sent = await this.send(missing);
    return { docId: r.docId, sent };
  }

  /** The thread this peer's document holds. */
  thread(): Thread {
    this.takePushes();
    return yToThread(this.doc);
  }
}
