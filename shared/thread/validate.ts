/**
 * Validation of a Thread document against `ThreadSchema` (TypeBox), with errors a person can
 * act on: each names a JSON pointer (RFC 6901) and what was expected there. Union noise is
 * resolved: a message whose `role` matches a variant is checked against that variant only, and
 * an unknown `role`/`type` is reported once, on that property, listing the accepted values.
 *
 * Repeated identifiers are checked apart from the schema ({@link findDuplicates}), because a
 * thread that has them still loads: the app opens it read-only and offers to give the repeats
 * new ids, so nothing in the file is lost; `stepwise validate` reports them as errors.
 */
import { Value } from '@sinclair/typebox/value';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { TSchema } from '@sinclair/typebox';
import { ThreadSchema, type Thread } from './schema';
import { evaluationProblems } from './evaluation';

/** One problem in a document: where (JSON pointer, '' for the whole document) and what. */
export interface ThreadProblem {
  pointer: string;
  message: string;
}

export type ValidateResult = { ok: true; thread: Thread } | { ok: false; errors: ThreadProblem[] };

/**
 * How deep a thread's JSON may nest (objects and arrays), counted from the document. Far beyond
 * any real tool argument; a file nested thousands of levels deep loaded, then failed to open
 * ("Maximum call stack size exceeded" serialising it for a window).
 */
export const MAX_THREAD_DEPTH = 2000;

/**
 * The JSON pointer of the first object or array deeper than `max` levels in `value` (past 12
 * keys, its first 10 and how many more), found without recursion; undefined when none is.
 */
export function tooDeep(value: unknown, max: number): string | undefined {
  // Depth-first with an explicit stack; each entry links to its parent entry, so the pointer is
  // built only for the one too deep.
  type Entry = { v: object; depth: number; key: string; parent: Entry | undefined };
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Entry[] = [{ v: value, depth: 0, key: '', parent: undefined }];
  while (stack.length) {
    const e = stack.pop()!;
    if (e.depth >= max) {
      const keys: string[] = [];
      for (let at: Entry | undefined = e; at?.parent; at = at.parent) keys.push(at.key);
      keys.reverse();
      // Past a dozen keys the pointer is abbreviated: the first ones say where, not all 2,000.
      const shown = keys.length > 12 ? [...keys.slice(0, 10).map(escapePointer), `… (${keys.length - 10} more levels)`] : keys.map(escapePointer);
      return keys.length ? `/${shown.join('/')}` : '';
    }
    for (const k in e.v) {
      const child = (e.v as Record<string, unknown>)[k];
      if (typeof child === 'object' && child !== null) stack.push({ v: child, depth: e.depth + 1, key: k, parent: e });
    }
  }
  return undefined;
}

const escapePointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** At most this many problems are reported; a wholly wrong document would otherwise list thousands. */
export const MAX_PROBLEMS = 50;

/**
 * Checks `value` against the current Thread schema (not repeated ids: {@link findDuplicates}),
 * after its nesting depth ({@link MAX_THREAD_DEPTH}). Never throws.
 */
export function validateThread(value: unknown): ValidateResult {
  const deep = tooDeep(value, MAX_THREAD_DEPTH);
  if (deep !== undefined) return { ok: false, errors: [{ pointer: deep, message: `nested deeper than ${MAX_THREAD_DEPTH} levels (the thread could not be sent to a window or a model)` }] };
  if (Value.Check(ThreadSchema, value)) {
    const thread = value as Thread;
    const errors = (thread.evaluations ?? []).flatMap((e, i) => evaluationProblems(e, `/evaluations/${i}`));
    return errors.length ? { ok: false, errors } : { ok: true, thread };
  }
  return { ok: false, errors: schemaProblems(ThreadSchema, value) };
}

/**
 * What must be unique in a thread, by kind:
 * - `message`: message ids. Edits, run results (`messageId`) and run records (`baseMessageIds`)
 *   find a message by its id; with two, they reach the wrong one.
 * - `toolCall`: tool call ids, across the whole thread, not just within a message. A run's tool
 *   results name their call by id; providers pair each tool result with its call by id, and
 *   Anthropic refuses a request in which any two `tool_use` blocks share one.
 * - `toolName`: tool names. A tool call names its tool; with two of one name, which one runs is
 *   a guess, and Anthropic refuses the request ("Tool names must be unique").
 * Not checked: run ref ids (written only by the host, from fresh run ids), part and node ids
 * (there are none in a thread), the thread id (unique across the workspace: the host refuses
 * to open a second file with an open thread's id).
 */
export type DuplicateKind = 'message' | 'toolCall' | 'toolName';

/** One identifier used more than once in a thread. */
export interface Duplicate {
  kind: DuplicateKind;
  /** The repeated id (for `toolName`, the name). */
  id: string;
  /** JSON pointers of every use, in document order (`/context/messages/3/id`…); the first is the original. */
  pointers: string[];
}

/** The part of a thread whose ids and names must not repeat. */
type ThreadIds = { context: Pick<Thread['context'], 'messages' | 'tools'> };

const KIND_NAMES: Record<DuplicateKind, string> = { message: 'message id', toolCall: 'tool call id', toolName: 'tool name' };

/**
 * Every message id, tool call id and tool name used more than once in `thread`: ids in the order
 * of their first use among the messages, then tool names. Never throws on a schema-valid thread.
 */
export function findDuplicates(thread: ThreadIds): Duplicate[] {
  if (!repeatsAny(thread)) return []; // the usual case, without a pointer string per id
  const uses = new Map<string, Duplicate>();
  const note = (kind: DuplicateKind, id: string, pointer: string) => {
    const key = `${kind}\u0000${id}`;
    const d = uses.get(key);
    if (d) d.pointers.push(pointer);
    else uses.set(key, { kind, id, pointers: [pointer] });
  };
  thread.context.messages.forEach((m, i) => {
    note('message', m.id, `/context/messages/${i}/id`);
    if (m.role === 'assistant') m.toolCalls?.forEach((c, j) => note('toolCall', c.id, `/context/messages/${i}/toolCalls/${j}/id`));
  });
  thread.context.tools.forEach((t, i) => note('toolName', t.name, `/context/tools/${i}/name`));
  return [...uses.values()].filter((d) => d.pointers.length > 1);
}

/** Whether any message id, tool call id or tool name is used twice (one pass, no strings made). */
function repeatsAny(thread: ThreadIds): boolean {
  const messages = new Set<string>();
  const calls = new Set<string>();
  for (const m of thread.context.messages) {
    if (messages.has(m.id)) return true;
    messages.add(m.id);
    if (m.role !== 'assistant' || !m.toolCalls) continue;
    for (const c of m.toolCalls) {
      if (calls.has(c.id)) return true;
      calls.add(c.id);
    }
  }
  return new Set(thread.context.tools.map((t) => t.name)).size !== thread.context.tools.length;
}

/**
 * The repeated message and tool call ids (not tool names): what the app finds things by. A
 * thread with any is read-only until they get new ids, and no run starts on it.
 */
export function duplicateIds(thread: Thread): Duplicate[] {
  return findDuplicates(thread).filter((d) => d.kind !== 'toolName');
}

/**
 * `message id "m1" at /context/messages/0/id and /context/messages/2/id`: the JSON-quoted id and
 * where it is used (the first three places, then how many more).
 */
export function describeDuplicate(d: Duplicate): string {
  const p = d.pointers;
  const at = p.length === 2 ? p.join(' and ') : p.length === 3 ? `${p[0]}, ${p[1]} and ${p[2]}` : `${p.slice(0, 3).join(', ')} and ${p.length - 3} more`;
  return `${KIND_NAMES[d.kind]} ${JSON.stringify(d.id)} at ${at}`;
}

/** Up to `max` duplicates described and joined by '; ', then how many more there are. */
export function describeDuplicates(list: Duplicate[], max = 3): string {
  const shown = list.slice(0, max).map(describeDuplicate).join('; ');
  return list.length > max ? `${shown}; and ${list.length - max} more` : shown;
}

/**
 * {@link findDuplicates} as problems: one per repeated use, at its pointer, naming the id and
 * where it was first used. At most MAX_PROBLEMS.
 */
export function duplicateProblems(thread: Thread): ThreadProblem[] {
  const out: ThreadProblem[] = [];
  for (const d of findDuplicates(thread)) {
    const rule = d.kind === 'toolName' ? 'tools must have different names' : 'ids must be unique in a thread';
    for (const pointer of d.pointers.slice(1)) {
      if (out.length >= MAX_PROBLEMS) return out;
      out.push({ pointer, message: `${KIND_NAMES[d.kind]} ${JSON.stringify(d.id)} is also used at ${d.pointers[0]}; ${rule}` });
    }
  }
  return out;
}

/** The problems of `value` against any TypeBox schema, union noise resolved, de-duplicated. */
export function schemaProblems(schema: TSchema, value: unknown, basePointer = ''): ThreadProblem[] {
  const out: ThreadProblem[] = [];
  const seen = new Set<string>();
  collect(schema, value, basePointer, out, seen);
  return out;
}

function collect(schema: TSchema, value: unknown, base: string, out: ThreadProblem[], seen: Set<string>): void {
  for (const error of Value.Errors(schema, value)) {
    if (out.length >= MAX_PROBLEMS) return;
    const pointer = base + error.path;
    // One problem per place: TypeBox reports a missing property twice (required, then its type).
    if ([...seen].some((p) => pointer === p || pointer.startsWith(p + '/'))) continue;
    if (error.type === ValueErrorType.Union) {
      const before = out.length;
      resolveUnion(error, pointer, out, seen);
      if (out.length > before) {
        seen.add(pointer);
        continue;
      }
    }
    seen.add(pointer);
    out.push({ pointer, message: describe(error) });
  }
}

/** Picks the variant the value meant (by a literal discriminator) and reports against it only. */
function resolveUnion(error: ValueError, pointer: string, out: ThreadProblem[], seen: Set<string>): void {
  const variants = (error.schema.anyOf ?? []) as TSchema[];
  const value = error.value;
  const objectVariants = variants.filter((v) => v.type === 'object' && v.properties);
  if (!isObject(value) || objectVariants.length !== variants.length || variants.length === 0) {
    out.push({ pointer, message: `expected ${[...new Set(variants.map(typeName))].join(' or ')}, got ${kindOf(value)}` });
    return;
  }
  const key = discriminator(objectVariants);
  if (key) {
    const accepted = [...new Set(objectVariants.map((v) => (v.properties[key] as TSchema).const as string))];
    const matches = objectVariants.filter((v) => (v.properties[key] as TSchema).const === value[key]);
    if (!matches.length) {
      const got = value[key] === undefined ? 'it is missing' : `got ${JSON.stringify(value[key])}`;
      out.push({ pointer: `${pointer}/${key}`, message: `expected ${accepted.map((a) => JSON.stringify(a)).join(' or ')}, ${got}` });
      return;
    }
    if (matches.length === 1) {
      collect(matches[0], value, pointer, out, seen);
      return;
    }
    // Several variants share the value (an image given inline or by URL): the closest one speaks.
    closest(matches, value, pointer, out);
    return;
  }
  closest(objectVariants, value, pointer, out);
}

/** Reports against the variant with the fewest problems. */
function closest(variants: TSchema[], value: unknown, pointer: string, out: ThreadProblem[]): void {
  let best: ThreadProblem[] | undefined;
  for (const v of variants) {
    const problems = schemaProblems(v, value, pointer);
    if (!best || problems.length < best.length) best = problems;
  }
  for (const p of best ?? []) if (out.length < MAX_PROBLEMS) out.push(p);
}

/** A property that every variant declares as a string literal (`role`, `type`), at least two distinct ones. */
function discriminator(variants: TSchema[]): string | undefined {
  for (const key of ['type', 'role', 'kind']) {
    const consts = variants.map((v) => (v.properties[key] as TSchema | undefined)?.const);
    if (consts.every((c) => typeof c === 'string') && new Set(consts).size > 1) return key;
  }
  return undefined;
}

function describe(error: ValueError): string {
  const s = error.schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'required property is missing';
    case ValueErrorType.Literal:
      return `expected ${JSON.stringify(s.const)}, got ${short(error.value)}`;
    case ValueErrorType.String:
    case ValueErrorType.Number:
    case ValueErrorType.Integer:
    case ValueErrorType.Boolean:
    case ValueErrorType.Array:
    case ValueErrorType.Object:
      return `expected ${typeName(s)}, got ${kindOf(error.value)}`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be ≥ ${s.minimum}, got ${short(error.value)}`;
    case ValueErrorType.NumberExclusiveMinimum:
      return `must be > ${s.exclusiveMinimum}, got ${short(error.value)}`;
    case ValueErrorType.ObjectAdditionalProperties:
      return 'unexpected property';
    default:
      return error.message.charAt(0).toLowerCase() + error.message.slice(1);
  }
}

function typeName(s: TSchema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return (s.anyOf as TSchema[]).map(typeName).join(' or ');
  switch (s.type) {
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'integer': return 'an integer';
    case 'boolean': return 'true or false';
    case 'array': return 'an array';
    case 'object': return 'an object';
    default: return String(s.type ?? 'a value');
  }
}

function kindOf(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string ${short(v)}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `the number ${v}` : `the number ${v}`;
  if (typeof v === 'boolean') return String(v);
  return 'an object';
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
