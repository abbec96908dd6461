/**
 * Migrations of older Thread documents to the current version (THREAD_VERSION). Browser-safe.
 *
 * Version 0 ("legacy") is any Stepwise document with no `version` or `version: 0`. It is the
 * current shape with these differences, each filled in on read:
 * - `id` may be missing → a stable id derived from the content (the same on every read);
 * - `title` may be missing → "Untitled"; `model` may be a `"provider/id"` string or lack `params`;
 * - `context.systemPrompt`, `context.tools`, `context.messages` and `runRefs` may be missing → empty;
 * - messages may lack `id` → stable ids `msg-<n>`; `content` may be a plain string;
 *   an assistant message may carry its reasoning as a `thinking` string;
 * - tool calls may lack `id`, carry `arguments` as a JSON string, and `output` as a plain string
 *   or without `isError`.
 * Anything else is kept as it was and left to validation to report.
 */
import { THREAD_VERSION } from './schema';
import { stableId } from './ids';

type Obj = Record<string, unknown>;

/** Migrates `raw` to the current version; returns it unchanged when it already is current (or not an object). Never mutates `raw`. */
export function migrateThread(raw: unknown): unknown {
  if (!isObj(raw)) return raw;
  const version = raw.version;
  if (version === THREAD_VERSION) return raw;
  if (version === undefined || version === 0) return fromV0(raw);
  return raw;
}

/** A message for documents written by a newer Stepwise, or undefined when the version is readable. */
export function unsupportedVersion(raw: unknown): string | undefined {
  if (!isObj(raw)) return undefined;
  const v = raw.version;
  if (typeof v === 'number' && v > THREAD_VERSION) {
    return `written by a newer Stepwise (document version ${v}); this version reads documents up to version ${THREAD_VERSION}`;
  }
  return undefined;
}

/** A missing field gets its default; a present one is kept as it is (the validator names a wrong type). */
const orDefault = (v: unknown, d: unknown): unknown => (v === undefined ? d : v);

function fromV0(raw: Obj): Obj {
  if (raw.context !== undefined && !isObj(raw.context)) return { ...raw, version: THREAD_VERSION }; // reported at /context
  const context = isObj(raw.context) ? raw.context : {};
  const rawMessages = Array.isArray(context.messages) ? context.messages : [];
  const taken = new Set<string>();
  for (const m of rawMessages) if (isObj(m) && typeof m.id === 'string') taken.add(m.id);
  const fresh = (base: string): string => {
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    taken.add(id);
    return id;
  };
  const messages = Array.isArray(context.messages) ? rawMessages.map((m, i) => (isObj(m) ? migrateMessage(m, i, fresh) : m)) : orDefault(context.messages, []);
  const title = typeof raw.title === 'string' ? raw.title : 'Untitled';
  return {
    ...raw,
    version: THREAD_VERSION,
    id: typeof raw.id === 'string' && raw.id ? raw.id : stableId(`${title}\n${JSON.stringify(rawMessages.slice(0, 4)).slice(0, 20_000)}`),
    title: orDefault(raw.title, title),
    model: migrateModel(raw.model),
    context: {
      ...context,
      systemPrompt: orDefault(context.systemPrompt, ''),
      tools: orDefault(context.tools, []),
      messages,
    },
    runRefs: orDefault(raw.runRefs, []),
  };
}

function migrateModel(model: unknown): unknown {
  if (typeof model === 'string') {
    const slash = model.indexOf('/');
    return slash > 0
      ? { provider: model.slice(0, slash), id: model.slice(slash + 1), params: {} }
      : { provider: model, id: '', params: {} };
  }
  if (isObj(model) && model.params === undefined) return { ...model, params: {} };
  return model;
}

function migrateMessage(m: Obj, index: number, fresh: (base: string) => string): Obj {
  const out: Obj = { ...m };
  if (typeof m.id !== 'string' || !m.id) out.id = fresh(`msg-${index + 1}`);
  if (typeof m.content === 'string') out.content = m.content ? [{ type: 'text', text: m.content }] : [];
  if (m.role === 'assistant') {
    if (typeof m.thinking === 'string') {
      delete out.thinking;
      const content = Array.isArray(out.content) ? out.content : [];
      out.content = m.thinking ? [{ type: 'thinking', thinking: m.thinking }, ...content] : content;
    }
    if (Array.isArray(m.toolCalls)) {
      out.toolCalls = m.toolCalls.map((c, j) => (isObj(c) ? migrateToolCall(c, `${out.id as string}-call-${j + 1}`) : c));
    }
  }
  return out;
}

function migrateToolCall(c: Obj, fallbackId: string): Obj {
  const out: Obj = { ...c };
  if (typeof c.id !== 'string' || !c.id) out.id = fallbackId;
  if (typeof c.arguments === 'string') {
    const parsed = tryParseObject(c.arguments);
    out.arguments = parsed ?? {};
    if (!parsed) out.rawArguments = c.arguments;
  } else if (c.arguments === undefined) {
    out.arguments = {};
  }
  if (typeof c.output === 'string') out.output = { content: [{ type: 'text', text: c.output }], isError: false };
  else if (isObj(c.output) && c.output.isError === undefined) out.output = { ...c.output, isError: false };
  return out;
}

/** Parses text as a JSON object; undefined when it is not one. */
export function tryParseObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
