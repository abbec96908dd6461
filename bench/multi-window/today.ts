/**
 * Today's multi-window edit path, for real (docs/architecture.md#multi-window-editing): the
 * host's {@link ThreadStore} (versioned Immer patches, `version_mismatch`, validation of every
 * edit) and one renderer {@link ThreadSession} per window (rebase, three-way text merge, index
 * patches for array items, per-window undo), over the simulated transport of net.ts with the
 * web host's frames: requests `{ id, method, params }`, answers `{ id, result | error }`,
 * pushes `{ push: thread_patch }` to every window that has the thread open. Keystrokes go in as
 * the message card makes them (MessageCard.tsx: find the message by id, `applyTyping`).
 */
import { createStore } from 'jotai';
import { enablePatches, type Patch } from 'immer';
import { ThreadStore } from '../../main/core/store/thread-store';
import { HostError as CoreError } from '../../main/core/errors';
import { ThreadSession } from './json-path/thread-session';
import { removeAt } from './json-path/array-edits';
import { applyTyping } from './json-path/text-merge';
import { HostCallError, type HostServices } from '../../renderer/src/host/types';
import type { Thread } from '../../shared/thread/schema';
import type { ThreadPatch } from '../../shared/protocol/envelopes';
import { canonical, textOfMessage, type Model } from './model';
import { utf8, type Net } from './net';

enablePatches();

type Answer = { id: number; result?: unknown; error?: { message: string; code?: string } };

/** Today's path with `windows` windows on `thread`, the field being message `field`. */
export async function openToday(thread: Thread, net: Net, windows: number, field = 'field'): Promise<Model> {
  const store = new ThreadStore({
    io: { load: async () => structuredClone(thread), save: async () => {} },
    // Saves are left out of the comparison (the same file write either way); see yjs.ts.
    debounceMs: 1_000_000_000,
    onPatch: (tp) => {
      for (let w = 0; w < windows; w++) down[w]({ push: tp }, (m) => sessions[w].applyRemote((m as { push: ThreadPatch }).push));
    },
  });
  const opened = await store.open('/bench/thread.json');
  const up = Array.from({ length: windows }, (_, w) => net.channel(`window ${w} → host`, 'up'));
  const down = Array.from({ length: windows }, (_, w) => net.channel(`host → window ${w}`, 'down'));
  const sessions: ThreadSession[] = [];
  let nextId = 1;

  /** The host's answer; `ThreadStore.edit` resolves once the edit is durable (applied and broadcast at once). */
  async function serve(w: number, req: { id: number; method: string; params: Record<string, unknown> }): Promise<Answer> {
    try {
      if (req.method === 'thread.open') return { id: req.id, result: { ...store.get(opened.thread.id), path: 'thread.json' } };
      if (req.method !== 'thread.edit') throw new CoreError('unknown_method', req.method);
      const p = req.params as { threadId: string; baseVersion: number; patches: Patch[]; editId: string };
      return { id: req.id, result: await store.edit(p.threadId, p.baseVersion, p.patches, `client:${w}`, p.editId) };
    } catch (err) {
      return { id: req.id, error: { message: (err as Error).message, code: (err as CoreError).code } };
    }
  }

  const hostFor = (w: number): HostServices =>
    ({
      presentational: false,
      call: (method: string, params: Record<string, unknown>) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          if (method === 'thread.edit') net.payload(utf8(JSON.stringify((params as { patches: Patch[] }).patches)));
          up[w]({ id, method, params }, (req) => {
            void serve(w, req as never).then((answer) =>
              down[w](answer, (a) => {
                const r = a as Answer;
                if (r.error) reject(new HostCallError(r.error.message, r.error.code, method));
                else resolve(r.result);
              }),
            );
          });
        }),
      pushes: () => ({ [Symbol.asyncIterator]: async function* () {} }),
    }) as unknown as HostServices;

  for (let w = 0; w < windows; w++) {
    // Each window holds its own copy, as a separate renderer process does.
    const copy = JSON.parse(JSON.stringify(opened.thread)) as Thread;
    sessions.push(new ThreadSession(createStore(), hostFor(w), { thread: copy, version: opened.version, path: 'thread.json', origin: `client:${w}` }, { now: () => net.now }));
  }

  return {
    name: 'today',
    net,
    windows,
    text: (w) => textOfMessage(sessions[w].thread, field),
    textOf: (w, id) => textOfMessage(sessions[w].thread, id),
    hostTextOf: (id) => textOfMessage(store.get(opened.thread.id).thread, id),
    threadJson: (w) => canonical(sessions[w].thread),
    hostThreadJson: () => canonical(store.get(opened.thread.id).thread),
    type(w, id, at, remove, insert) {
      const s = sessions[w];
      const before = textOfMessage(s.thread, id);
      if (before === undefined) return false;
      const after = before.slice(0, at) + insert + before.slice(at + remove);
      return s.edit((d) => {
        // As MessageCard.setText: by id, merged into the document's text with applyTyping.
        const msg = d.context.messages.find((x) => x.id === id);
        if (!msg) return;
        const part = msg.content.find((p) => p.type === 'text') as { text: string } | undefined;
        if (part) part.text = applyTyping(before, after, part.text);
      }, `msg.${id}.text`);
    },
    deleteMessage(w, id) {
      const s = sessions[w];
      const i = s.thread.context.messages.findIndex((m) => m.id === id);
      if (i < 0) return false;
      const p = removeAt(s.thread, ['context', 'messages'], i);
      return s.editPatches(p.forward, p.inverse);
    },
    undo: (w) => sessions[w].undo(),
    settled: () => sessions.every((s) => s.settled),
    errors: () => sessions.flatMap((s, w) => (s.meta.error ? [`window ${w}: ${s.meta.error.message}`] : [])),
    close: () => store.flush(),
  };
}
