/**
 * Ids for threads, messages, tool calls and edits: the one place that makes them, in the host,
 * the importers and the renderer alike; and their repair when a thread repeats one.
 * Browser-safe: uses the global Web Crypto.
 */
import type { Thread } from './schema';

/**
 * A fresh random id: a plain uuid (RFC 9562 version 4), or `<prefix>_<uuid>` when a prefix is
 * given: `msg` for messages, `call` for tool calls.
 */
export function newId(prefix?: string): string {
  const uuid = randomUuid();
  return prefix ? `${prefix}_${uuid}` : uuid;
}

/**
 * `crypto.randomUUID()` where it exists. A page served over plain HTTP from another machine (the
 * web host with `--host`) is not a secure context and has no `randomUUID`; `getRandomValues`
 * exists in every context, so the same version 4 uuid is built from it there.
 */
function randomUuid(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; // version 4
  b[8] = (b[8] & 0x3f) | 0x80; // variant 10xx
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A deterministic uuid-shaped id derived from `seed` (FNV-1a, not cryptographic). Used where an
 * id must come out the same on every read of the same input, e.g. migrating a legacy file that
 * has no ids, so reloading it without saving does not change them.
 */
export function stableId(seed: string): string {
  // Four 32-bit FNV-1a lanes with different offsets give 128 bits of spread.
  const lanes = [0x811c9dc5, 0x01000193 ^ 0x5bd1e995, 0x2f693b47, 0x9e3779b9];
  for (let i = 0; i < seed.length; i++) {
    const c = seed.charCodeAt(i);
    for (let l = 0; l < 4; l++) lanes[l] = Math.imul(lanes[l] ^ (c + l), 0x01000193) >>> 0;
  }
  const hex = lanes.map((n) => n.toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** One id {@link giveDuplicatesNewIds} changed: where (JSON pointer of the id field), from what, to what. */
export interface IdRename {
  kind: 'message' | 'toolCall';
  pointer: string;
  from: string;
  to: string;
}

/** `<id>-<n>` with the first n ≥ 2 not in `taken`, which it is added to. */
function suffixed(id: string, taken: Set<string>): string {
  let n = 2;
  while (taken.has(`${id}-${n}`)) n++;
  const next = `${id}-${n}`;
  taken.add(next);
  return next;
}

/** Every tool call id used in `thread`. */
export function toolCallIdsOf(thread: Thread): Set<string> {
  const ids = new Set<string>();
  for (const m of thread.context.messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) ids.add(c.id);
  return ids;
}

/**
 * Gives every repeated message id and tool call id but its first use a new one, `<id>-2`,
 * `<id>-3`… (the first number free among the thread's ids of that kind), and returns what it
 * changed. Mutates `thread`: pass an Immer draft, so the repair is one edit and one undo step.
 *
 * The first use keeps the id: it is the original (a repeat comes from a copy pasted or merged
 * into the file later), and run records made before the copy name it. A tool call's result is
 * its `output`, stored in the call, so it moves with the renamed call and stays paired with it
 * (providers pair a result with its call by the call's id, which both now carry). The suffix
 * keeps an id's characters, so a provider's id pattern (Anthropic: letters, digits, `_`, `-`)
 * still holds. Tool names are left alone: a name is what the model sees.
 */
export function giveDuplicatesNewIds(thread: Thread): IdRename[] {
  const messages = thread.context.messages;
  const takenMessages = new Set(messages.map((m) => m.id));
  const takenCalls = toolCallIdsOf(thread);
  const seenMessages = new Set<string>();
  const seenCalls = new Set<string>();
  const renames: IdRename[] = [];
  messages.forEach((m, i) => {
    if (seenMessages.has(m.id)) {
      const to = suffixed(m.id, takenMessages);
      renames.push({ kind: 'message', pointer: `/context/messages/${i}/id`, from: m.id, to });
      m.id = to;
    }
    seenMessages.add(m.id);
    if (m.role !== 'assistant') return;
    m.toolCalls?.forEach((c, j) => {
      if (seenCalls.has(c.id)) {
        const to = suffixed(c.id, takenCalls);
        renames.push({ kind: 'toolCall', pointer: `/context/messages/${i}/toolCalls/${j}/id`, from: c.id, to });
        c.id = to;
      }
      seenCalls.add(c.id);
    });
  });
  return renames;
}

/**
 * Gives each of `calls` (a new message's, as a provider returned them) whose id is in `taken`
 * or repeats an earlier one of `calls` a new id `<id>-<n>`, and adds every id to `taken`.
 * Providers may repeat ids across turns (some OpenAI-compatible servers send none, and each
 * reply's calls are then numbered `call_0`…), which would make the thread's tool call ids
 * ambiguous. Mutates `calls`.
 */
export function makeToolCallIdsUnique(calls: { id: string }[], taken: Set<string>): void {
  for (const c of calls) {
    if (taken.has(c.id)) c.id = suffixed(c.id, taken);
    else taken.add(c.id);
  }
}
