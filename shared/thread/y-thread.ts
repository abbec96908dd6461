/**
 * The thread as a Yjs document (docs/architecture.md#multi-window-editing). The texts people
 * type into — the system prompt, a message's text and thinking parts — are `Y.Text`; messages
 * are a `Y.Array` of `Y.Map`, their content parts and tool calls `Y.Array`s of `Y.Map`; a tool
 * call's arguments a `Y.Map` of plain JSON values (last writer wins per key), its output (the
 * result) a `Y.Map` whose `content` is a parts array like a message's, so a result's text is a
 * `Y.Text` too. Everything else (model, settings, tools, run refs, images, structured content,
 * variables) is a plain JSON value. A document saved before outputs were maps holds an output
 * as a plain value; the first edit of it makes it a map (y-patches.ts `setIn`). Root
 * types: `thread` (top-level fields but `context`), `context` (its fields but the three below),
 * `systemPrompt`, `tools`, `messages`.
 *
 * The file on disk stays JSON: {@link yToThread} is what the host validates and saves.
 */
import * as Y from 'yjs';
import type { Message } from './messages';
import type { Thread } from './schema';

/** The shared types of one thread document. */
export interface ThreadTypes {
  meta: Y.Map<unknown>;
  context: Y.Map<unknown>;
  systemPrompt: Y.Text;
  tools: Y.Array<unknown>;
  messages: Y.Array<Y.Map<unknown>>;
}

/** Context fields with a shared type of their own (the others live in the `context` map). */
export const CONTEXT_TYPES = new Set(['systemPrompt', 'tools', 'messages']);

/** The shared types of `doc` (created empty on first use). */
export function threadTypes(doc: Y.Doc): ThreadTypes {
  return {
    meta: doc.getMap<unknown>('thread'),
    context: doc.getMap<unknown>('context'),
    systemPrompt: doc.getText('systemPrompt'),
    tools: doc.getArray<unknown>('tools'),
    messages: doc.getArray<Y.Map<unknown>>('messages'),
  };
}

/** The root types in one list (an UndoManager's scope, observers). */
export function rootList(y: ThreadTypes): Y.AbstractType<any>[] {
  return [y.meta, y.context, y.systemPrompt, y.tools, y.messages];
}

/**
 * What a place in the thread becomes in Yjs. `messages`, `parts`, `calls`: arrays of messages,
 * content parts, tool calls; `message`, `part`, `call`, `args`, `output`: maps (`output`: a tool
 * call's result); `text`: a `Y.Text`; `plain`: a JSON value stored as is.
 */
export type Kind = 'messages' | 'message' | 'parts' | 'part' | 'calls' | 'call' | 'args' | 'output' | 'text' | 'plain';

/** The kinds held as a `Y.Map` (merged key by key when replaced by a record). */
export const MAP_KINDS: ReadonlySet<Kind> = new Set<Kind>(['message', 'part', 'call', 'args', 'output']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The kind of `value` at `key` inside a place of kind `kind`. */
export function childKind(kind: Kind, key: string | number, value: unknown): Kind {
  switch (kind) {
    case 'messages':
      return isRecord(value) ? 'message' : 'plain';
    case 'message':
      if (key === 'content' && Array.isArray(value)) return 'parts';
      if (key === 'toolCalls' && Array.isArray(value)) return 'calls';
      return 'plain';
    case 'parts':
      return isRecord(value) && (value.type === 'text' || value.type === 'thinking') ? 'part' : 'plain';
    case 'part':
      return (key === 'text' || key === 'thinking') && typeof value === 'string' ? 'text' : 'plain';
    case 'calls':
      return isRecord(value) ? 'call' : 'plain';
    case 'call':
      if (key === 'arguments' && isRecord(value)) return 'args';
      return key === 'output' && isRecord(value) ? 'output' : 'plain';
    case 'output':
      return key === 'content' && Array.isArray(value) ? 'parts' : 'plain';
    default:
      return 'plain';
  }
}

/** `value` (JSON) as the place of kind `kind` holds it: a new shared type, or the value itself. */
export function toY(kind: Kind, value: unknown): unknown {
  switch (kind) {
    case 'text':
      return new Y.Text(value as string);
    case 'messages':
    case 'parts':
    case 'calls':
      return Y.Array.from((value as unknown[]).map((v, i) => toY(childKind(kind, i, v), v)) as never[]);
    case 'message':
    case 'part':
    case 'call':
    case 'args':
    case 'output': {
      const m = new Y.Map<unknown>();
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) m.set(k, toY(childKind(kind, k, v), v));
      return m;
    }
    default:
      return value;
  }
}

/** One message as a `Y.Map`. */
export function messageToY(m: Message): Y.Map<unknown> {
  return toY('message', m) as Y.Map<unknown>;
}

/** Fill the empty `doc` with `t`, in one transaction of `origin`. */
export function threadToY(t: Thread, doc: Y.Doc, origin?: unknown): void {
  const y = threadTypes(doc);
  doc.transact(() => {
    for (const [k, v] of Object.entries(t)) if (k !== 'context' && v !== undefined) y.meta.set(k, v);
    for (const [k, v] of Object.entries(t.context)) if (!CONTEXT_TYPES.has(k) && v !== undefined) y.context.set(k, v);
    y.systemPrompt.insert(0, t.context.systemPrompt);
    y.tools.push(t.context.tools);
    y.messages.push(t.context.messages.map(messageToY));
  }, origin);
}

/** A new document holding `t` (its own client id). */
export function newThreadDoc(t: Thread, origin?: unknown): Y.Doc {
  const doc = new Y.Doc();
  threadToY(t, doc, origin);
  return doc;
}

/** The thread `doc` holds, as plain JSON (what the host validates and saves). */
export function yToThread(doc: Y.Doc): Thread {
  const y = threadTypes(doc);
  return {
    ...(y.meta.toJSON() as Omit<Thread, 'context'>),
    context: {
      ...(y.context.toJSON() as Partial<Thread['context']>),
      systemPrompt: y.systemPrompt.toString(),
      tools: y.tools.toJSON() as Thread['context']['tools'],
      messages: y.messages.toJSON() as Message[],
    },
  } as Thread;
}

/** A value read out of the document as JSON (a shared type's `toJSON`, a plain value as is). */
export function plain(v: unknown): unknown {
  return v instanceof Y.AbstractType ? v.toJSON() : v;
}

/** False when `t` or one of the types holding it was deleted (its message removed). */
export function alive(t: Y.AbstractType<any>): boolean {
  for (let cur: Y.AbstractType<any> | null = t; cur && cur._item; cur = cur._item.parent as Y.AbstractType<any> | null) {
    if (cur._item.deleted) return false;
  }
  return true;
}

/** The message `id` of the document, or undefined. */
export function findMessage(messages: Y.Array<Y.Map<unknown>>, id: string): Y.Map<unknown> | undefined {
  for (const m of messages) if (m instanceof Y.Map && m.get('id') === id) return m;
  return undefined;
}

/**
 * The `Y.Text` of part `part` (an index into `content`) of message `id`, holding field `field`
 * (`text` or `thinking`); undefined when there is none (the part is not text, the message gone).
 */
export function findText(messages: Y.Array<Y.Map<unknown>>, id: string, part = 0, field: 'text' | 'thinking' = 'text'): Y.Text | undefined {
  const content = findMessage(messages, id)?.get('content');
  if (!(content instanceof Y.Array)) return undefined;
  const p = content.get(part);
  const t = p instanceof Y.Map ? p.get(field) : undefined;
  return t instanceof Y.Text ? t : undefined;
}
