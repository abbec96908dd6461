/**
 * The Yjs model of multi-window editing that the benchmark weighs against today's path: the
 * host holds one `Y.Doc` per open thread (y-thread.ts), applies each window's update and relays
 * it to the other windows; a window edits its own `Y.Doc` (a keystroke is a `Y.Text` insert or
 * delete, as `y-codemirror.next` makes it) and sends every local update at once. No version,
 * no answer, no rebase: any order of delivery converges. Undo is a `Y.UndoManager` per window
 * tracking only that window's transactions; steps split as today's do (another field, or more
 * than 800 ms since the last keystroke, in virtual time). The renderer still needs an immutable
 * thread for React: each window keeps one, updated from the Yjs events with Immer.
 * The host keeps the JSON file: 300 ms after the last update it turns the document into JSON
 * and validates it ({@link Model.tick}); it cannot refuse an update.
 */
import * as Y from 'yjs';
import { produce } from 'immer';
import type { Thread } from '../../shared/thread/schema';
import { validateThread } from '../../shared/thread/validate';
import { canonical, textOfMessage, type Model } from './model';
import type { Net } from './net';
import { alive, findText, threadToY, threadTypes, yToThread } from './y-thread';

const REMOTE = Symbol('remote');
const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

type Path = (string | number)[];

function setAt(root: unknown, path: Path, value: unknown): void {
  let v = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) v = v[k] as Record<string | number, unknown>;
  v[path[path.length - 1]] = value;
}

/** One window: its document, undo manager and the thread React would render. */
interface YWindow {
  doc: Y.Doc;
  types: ReturnType<typeof threadTypes>;
  undo: Y.UndoManager;
  view: Thread;
  local: object;
  bound: Map<string, Y.Text>;
  lastKey?: string;
  lastAt: number;
}

/** The Yjs model with `windows` windows on `thread`, the field being message `field`. */
export function openYjs(thread: Thread, net: Net, windows: number, field = 'field'): Model & { hostDoc: Y.Doc; windowDocs: Y.Doc[] } {
  const host = new Y.Doc();
  host.clientID = 1_000_000;
  threadToY(thread, host);
  const up = Array.from({ length: windows }, (_, w) => net.channel(`window ${w} → host`, 'up'));
  const down = Array.from({ length: windows }, (_, w) => net.channel(`host → window ${w}`, 'down'));
  let dirtySince: number | undefined;
  let nextId = 1;
  const wins: YWindow[] = [];

  for (let w = 0; w < windows; w++) {
    const doc = new Y.Doc();
    doc.clientID = w + 1; // fixed, so concurrent inserts order the same in every run
    // Each window builds its own copy from the host's state, as a separate renderer process does.
    Y.applyUpdate(doc, unb64(JSON.parse(JSON.stringify({ state: b64(Y.encodeStateAsUpdate(host)) })).state), REMOTE);
    const types = threadTypes(doc);
    const local = { window: w };
    const win: YWindow = {
      doc,
      types,
      local,
      undo: new Y.UndoManager([types.meta, types.systemPrompt, types.tools, types.messages], { trackedOrigins: new Set([local]), captureTimeout: 2 ** 31 }),
      view: yToThread(doc),
      bound: new Map(),
      lastAt: -Infinity,
    };
    doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === REMOTE) return;
      net.payload(update.length);
      up[w]({ id: nextId++, method: 'thread.update', params: { threadId: thread.id, update: b64(update) } }, (m) => receive(w, (m as { params: { update: string } }).params.update));
    });
    types.messages.observeDeep((events) => {
      win.view = produce(win.view, (d) => {
        if (events.some((e) => e.target === types.messages)) {
          d.context.messages = types.messages.toJSON() as never;
          return;
        }
        for (const e of events) {
          const path = e.path as Path;
          if (e.target instanceof Y.Text) setAt(d.context.messages, path, e.target.toString());
          else d.context.messages[path[0] as number] = types.messages.get(path[0] as number).toJSON() as never;
        }
      });
    });
    types.systemPrompt.observe(() => {
      win.view = produce(win.view, (d) => void (d.context.systemPrompt = types.systemPrompt.toString()));
    });
    wins.push(win);
  }

  /** The host takes window `from`'s update and relays it to the others. */
  function receive(from: number, update: string): void {
    Y.applyUpdate(host, unb64(update), { window: from });
    dirtySince = net.now;
    for (let w = 0; w < windows; w++) {
      if (w === from) continue;
      down[w]({ push: { v: 1, type: 'thread_update', threadId: thread.id, update } }, (m) => Y.applyUpdate(wins[w].doc, unb64((m as { push: { update: string } }).push.update), REMOTE));
    }
  }

  /** Split undo steps as today's history does: another field, or a pause over 800 ms. */
  function step(win: YWindow, key: string | undefined): void {
    if (key === undefined || key !== win.lastKey || net.now - win.lastAt > 800) win.undo.stopCapturing();
    win.lastKey = key;
    win.lastAt = net.now;
  }

  return {
    name: 'yjs',
    net,
    windows,
    hostDoc: host,
    windowDocs: wins.map((x) => x.doc),
    text: (w) => textOfMessage(wins[w].view, field),
    textOf: (w, id) => textOfMessage(wins[w].view, id),
    hostTextOf: (id) => findText(threadTypes(host).messages, id)?.toString(),
    threadJson: (w) => canonical(wins[w].view),
    hostThreadJson: () => canonical(yToThread(host)),
    type(w, id, at, remove, insert) {
      const win = wins[w];
      let t = win.bound.get(id);
      if (!t || !alive(t)) {
        // The binding follows the message by id (an undone delete brings back a new Y.Map).
        t = findText(win.types.messages, id);
        if (!t) return false;
        win.bound.set(id, t);
      }
      const text = t;
      step(win, `msg.${id}.text`);
      win.doc.transact(() => {
        if (remove) text.delete(at, remove);
        if (insert) text.insert(at, insert);
      }, win.local);
      return true;
    },
    deleteMessage(w, id) {
      const win = wins[w];
      const i = win.types.messages.toArray().findIndex((m) => m.get('id') === id);
      if (i < 0) return false;
      step(win, undefined);
      win.doc.transact(() => win.types.messages.delete(i, 1), win.local);
      step(win, undefined);
      return true;
    },
    undo(w) {
      const win = wins[w];
      step(win, undefined);
      return win.undo.undo() !== null;
    },
    settled: () => true,
    errors: () => [],
    tick(now) {
      if (dirtySince === undefined || now - dirtySince < 300) return;
      dirtySince = undefined;
      const checked = validateThread(yToThread(host));
      if (!checked.ok) throw new Error(`the Yjs host's document is no longer a valid thread: ${checked.errors[0].pointer} ${checked.errors[0].message}`);
    },
    close: async () => {
      for (const x of wins) x.undo.destroy();
    },
  };
}
