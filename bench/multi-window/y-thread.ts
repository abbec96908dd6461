/**
 * The thread as a Yjs document, as a migration to Yjs would hold it: the texts people type
 * into (the system prompt, message text and thinking parts) are `Y.Text`; messages are a
 * `Y.Array` of `Y.Map`, their content parts and tool calls `Y.Array`s of `Y.Map`; a tool call's
 * arguments a `Y.Map` of plain JSON values (last writer wins per key, as today's key-by-key
 * merge); everything else (model, settings, tools, run refs, images, outputs) plain JSON values.
 */
import * as Y from 'yjs';
import type { Message } from '../../shared/thread/messages';
import type { Thread } from '../../shared/thread/schema';

const TEXT_KEYS = new Set(['text', 'thinking']);

function partToY(part: Record<string, unknown>): Y.Map<unknown> | Record<string, unknown> {
  if (part.type !== 'text' && part.type !== 'thinking') return part;
  const y = new Y.Map<unknown>();
  for (const [k, v] of Object.entries(part)) y.set(k, TEXT_KEYS.has(k) && typeof v === 'string' ? new Y.Text(v) : v);
  return y;
}

function callToY(call: Record<string, unknown>): Y.Map<unknown> {
  const y = new Y.Map<unknown>();
  for (const [k, v] of Object.entries(call)) {
    if (k === 'arguments' && v && typeof v === 'object') {
      const args = new Y.Map<unknown>();
      for (const [ak, av] of Object.entries(v)) args.set(ak, av);
      y.set(k, args);
    } else y.set(k, v);
  }
  return y;
}

/** One message as a `Y.Map`. */
export function messageToY(m: Message): Y.Map<unknown> {
  const y = new Y.Map<unknown>();
  for (const [k, v] of Object.entries(m)) {
    if (k === 'content') y.set(k, Y.Array.from<any>((v as Record<string, unknown>[]).map(partToY)));
    else if (k === 'toolCalls') y.set(k, Y.Array.from<any>((v as Record<string, unknown>[]).map(callToY)));
    else y.set(k, v);
  }
  return y;
}

/** The shared types of a thread document. */
export function threadTypes(doc: Y.Doc) {
  return {
    meta: doc.getMap<unknown>('thread'),
    systemPrompt: doc.getText('systemPrompt'),
    tools: doc.getArray<unknown>('tools'),
    messages: doc.getArray<Y.Map<unknown>>('messages'),
  };
}

/** Fill the empty `doc` with `t`. */
export function threadToY(t: Thread, doc: Y.Doc): void {
  const y = threadTypes(doc);
  doc.transact(() => {
    for (const [k, v] of Object.entries(t)) if (k !== 'context') y.meta.set(k, v);
    y.systemPrompt.insert(0, t.context.systemPrompt);
    y.tools.push(t.context.tools);
    y.messages.push(t.context.messages.map(messageToY));
  });
}

/** The thread `doc` holds, as plain JSON (what the host validates and saves). */
export function yToThread(doc: Y.Doc): Thread {
  const y = threadTypes(doc);
  return {
    ...(y.meta.toJSON() as Omit<Thread, 'context'>),
    context: { systemPrompt: y.systemPrompt.toString(), tools: y.tools.toJSON() as Thread['context']['tools'], messages: y.messages.toJSON() as Message[] },
  } as Thread;
}

/** False when `t` or one of the types holding it was deleted (its message removed). */
export function alive(t: Y.AbstractType<any>): boolean {
  for (let cur: Y.AbstractType<any> | null = t; cur && cur._item; cur = cur._item.parent as Y.AbstractType<any> | null) {
    if (cur._item.deleted) return false;
  }
  return true;
}

/** The `Y.Text` of message `id`'s first text part, or undefined. */
export function findText(messages: Y.Array<Y.Map<unknown>>, id: string): Y.Text | undefined {
  for (const m of messages) {
    if (m.get('id') !== id) continue;
    const content = m.get('content') as Y.Array<unknown>;
    for (const p of content) if (p instanceof Y.Map && p.get('type') === 'text') return p.get('text') as Y.Text;
    return undefined;
  }
  return undefined;
}
