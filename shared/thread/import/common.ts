/**
 * Building blocks the importers share: the error type, a builder that assembles Stepwise
 * messages from a foreign message list (attaching tool results to the tool calls they answer),
 * and small converters (data URLs, tool result content). Browser-safe.
 */
import { THREAD_VERSION, type Thread } from '../schema';
import type { ImagePart, ImageUrlPart, AssistantMessage, Message, ToolCall, ToolOutput, UserMessage } from '../messages';
import type { FunctionTool, Tool } from '../tools';
import type { ModelConfig } from '../model-config';
import { newId } from '../ids';
import { validateThread, type ThreadProblem } from '../validate';
import type { RunRecord } from '../../protocol/host-api';

/** The formats `detectFormat` tells apart. */
export type ThreadFormat = 'stepwise' | 'llmspace' | 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'otlp-genai' | 'unknown';

/** Human names of the formats, for messages. */
export const FORMAT_NAMES: Record<ThreadFormat, string> = {
  stepwise: 'Stepwise thread',
  llmspace: 'LLM Space thread file',
  'openai-chat': 'OpenAI Chat Completions request',
  'openai-responses': 'OpenAI Responses request',
  'anthropic-messages': 'Anthropic Messages request',
  'otlp-genai': 'OpenTelemetry trace with GenAI spans (OTLP/JSON)',
  unknown: 'unknown format',
};

/** A foreign document that cannot be turned into a Thread; each problem names a JSON pointer in the input. */
export class ImportError extends Error {
  constructor(
    readonly format: ThreadFormat,
    readonly problems: ThreadProblem[],
  ) {
    const list = problems.map((p) => (p.pointer ? `${p.pointer}: ${p.message}` : p.message)).join('; ');
    super(format === 'unknown' ? list : `cannot import ${FORMAT_NAMES[format]}: ${list}`);
    this.name = 'ImportError';
  }
}

/**
 * A whole import: the thread, the run records that go with it (runs/<threadId>/<runId>.json,
 * already listed in `thread.runRefs`; the host writes them), and what could not be kept, each
 * naming the pointer in the input.
 */
export interface ImportResult {
  format: ThreadFormat;
  thread: Thread;
  runs: RunRecord[];
  notes: ThreadProblem[];
}

/** Options every importer takes. */
export interface ImportOptions {
  /** Title of the new thread; by default the start of the first user message. */
  title?: string;
  /** Where an importer lists what it could not keep (JSON pointer in the input, and what). */
  notes?: ThreadProblem[];
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws an ImportError with one problem. */
export function fail(format: ThreadFormat, pointer: string, message: string): never {
  throw new ImportError(format, [{ pointer, message }]);
}

const detailOf = (d: unknown): Pick<ImagePart, 'detail'> => (d === 'auto' || d === 'low' || d === 'high' ? { detail: d } : {});
const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*?);base64,(.*)$/s;

/**
 * An image of a tool result given by URL: `data:<mime>;base64,<data>` becomes an image part; a
 * plain URL becomes the text `[image: <url>]` (tool results keep images inline), so the
 * reference stays visible and editable instead of being dropped.
 */
export function imageFromUrl(format: ThreadFormat, url: unknown, pointer: string): ImagePart | { type: 'text'; text: string } {
  if (typeof url !== 'string') fail(format, pointer, 'expected an image URL string');
  const m = DATA_URL.exec(url);
  if (m) return { type: 'image', mimeType: m[1], data: m[3] };
  if (url.startsWith('data:')) fail(format, pointer, 'a data: URL image must be base64 (data:<type>;base64,…)');
  return { type: 'text', text: `[image: ${url}]` };
}

/**
 * An image of a user message given by URL: a base64 data: URL becomes an image part, an
 * http(s) URL a URL image part (the provider fetches it). OpenAI's `detail` (auto, low, high)
 * is kept. Anything else is an error naming `pointer`.
 */
export function messageImage(format: ThreadFormat, url: unknown, pointer: string, detail?: unknown): ImagePart | ImageUrlPart {
  if (typeof url !== 'string') fail(format, pointer, 'expected an image URL string');
  const m = DATA_URL.exec(url);
  if (m) return { type: 'image', mimeType: m[1], data: m[3], ...detailOf(detail) };
  if (/^https?:\/\//i.test(url)) return { type: 'image', url, ...detailOf(detail) };
  fail(format, pointer, url.startsWith('data:') ? 'a data: URL image must be base64 (data:<type>;base64,…)' : `an image URL must be http(s) or a base64 data: URL, not ${JSON.stringify(url.slice(0, 40))}`);
}

/** Parses tool-call argument text; unparseable or non-object text is kept in `rawArguments`. */
export function parseArguments(text: unknown): Pick<ToolCall, 'arguments' | 'rawArguments'> {
  if (isObj(text)) return { arguments: text };
  if (typeof text !== 'string' || text.trim() === '') return { arguments: {} };
  try {
    const v: unknown = JSON.parse(text);
    if (isObj(v)) return { arguments: v };
  } catch {}
  return { arguments: {}, rawArguments: text };
}

/**
 * Assembles messages in order. Assistant content and tool calls go to the "open" assistant
 * message (consecutive assistant items of one turn are one message); a user message or a tool
 * result closes it. Tool results attach to the earlier tool call with the same id.
 */
export class MessageBuilder {
  readonly messages: Message[] = [];
  private open: AssistantMessage | undefined;
  private readonly calls = new Map<string, ToolCall>();

  constructor(private readonly format: ThreadFormat) {}

  user(content: UserMessage['content']): void {
    this.open = undefined;
    if (content.length === 0) return;
    this.messages.push({ id: newId('msg'), role: 'user', content });
  }

  /** The open assistant message, created when there is none. */
  assistant(): AssistantMessage {
    if (!this.open) {
      this.open = { id: newId('msg'), role: 'assistant', content: [] };
      this.messages.push(this.open);
    }
    return this.open;
  }

  /** Ends the open assistant message: the next assistant item starts a new one. */
  closeAssistant(): void {
    this.open = undefined;
  }

  toolCall(call: Omit<ToolCall, 'id'> & { id?: string }, pointer: string): ToolCall {
    const a = this.assistant();
    const full: ToolCall = { ...call, id: call.id || newId('call') };
    if (this.calls.has(full.id)) fail(this.format, pointer, `tool call id ${JSON.stringify(full.id)} is used twice`);
    this.calls.set(full.id, full);
    (a.toolCalls ??= []).push(full);
    return full;
  }

  /** Attaches a result to the tool call `callId`; an unknown id is an error naming the pointer. */
  toolResult(callId: unknown, output: ToolOutput, pointer: string): void {
    this.open = undefined;
    if (typeof callId !== 'string') fail(this.format, pointer, 'a tool result needs the id of the tool call it answers');
    const call = this.calls.get(callId);
    if (!call) fail(this.format, pointer, `tool result for ${JSON.stringify(callId)} answers no earlier tool call`);
    if (call.output) fail(this.format, pointer, `tool call ${JSON.stringify(callId)} has two results`);
    call.output = output;
  }

  /** Finds the most recent unanswered call with this name (legacy OpenAI `function` messages). */
  lastOpenCallNamed(name: unknown): string | undefined {
    const all = [...this.calls.values()].reverse();
    return all.find((c) => c.name === name && !c.output)?.id;
  }
}

/** Title from the start of the first user text, or a fallback. */
export function titleFrom(messages: Message[], fallback: string): string {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const text = m.content.find((p) => p.type === 'text');
    if (text && text.type === 'text' && text.text.trim()) {
      const line = text.text.trim().split('\n')[0];
      return line.length > 60 ? `${line.slice(0, 57).trimEnd()}…` : line;
    }
  }
  return fallback;
}

/** Assembles and validates the Thread; an invalid result is an ImportError naming the output pointers. */
export function finishThread(format: ThreadFormat, parts: {
  title?: string;
  fallbackTitle: string;
  model: ModelConfig;
  systemPrompt: string;
  tools: Tool[];
  messages: Message[];
  /** Variable fields of the context (variables, variableTypes, scenarios, scenario). */
  variables?: Pick<Thread['context'], 'variables' | 'variableTypes' | 'scenarios' | 'scenario'>;
  /** Top-level fields besides the required ones (evaluations, rubrics, runRefs). */
  more?: Partial<Pick<Thread, 'evaluations' | 'rubrics' | 'runRefs'>>;
  id?: string;
}): Thread {
  const thread: Thread = {
    version: THREAD_VERSION,
    id: parts.id ?? newId(),
    title: parts.title ?? titleFrom(parts.messages, parts.fallbackTitle),
    model: parts.model,
    context: {
      systemPrompt: parts.systemPrompt,
      tools: parts.tools,
      ...parts.variables,
      messages: parts.messages,
    },
    runRefs: [],
    ...parts.more,
  };
  const checked = validateThread(thread);
  if (!checked.ok) throw new ImportError(format, checked.errors.map((e) => ({ pointer: `(imported thread)${e.pointer}`, message: e.message })));
  return checked.thread;
}

/** Splits request fields into known ones and the rest (kept as `model.params.extra`). */
export function extraFields(json: Obj, known: string[]): Record<string, unknown> | undefined {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) if (!known.includes(k) && v !== undefined) extra[k] = v;
  return Object.keys(extra).length ? extra : undefined;
}

const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
/** A reasoning effort Stepwise knows, or undefined. */
export function effortOf(v: unknown): (typeof EFFORTS)[number] | undefined {
  return EFFORTS.find((e) => e === v);
}

/**
 * One entry of a request's `tools` array as its format spells it: a function the model calls
 * (name, description and JSON Schema parameters where the format keeps them, and the JSON
 * pointer of the name for errors), or a provider's built-in tool, kept with its fields.
 */
export type RequestTool =
  | { kind: 'function'; name: unknown; namePointer: string; description?: unknown; parameters?: unknown; strict?: unknown }
  | { kind: 'builtin'; name: string; config: Obj };

/**
 * The Thread tools of a request's `tools` array (none when absent). `entry` reads one object
 * entry in the format's own spelling; a function whose parameters are not a JSON Schema object
 * takes none. Errors name the pointer: `tools` not an array, an entry not an object, a function
 * without a name.
 */
export function requestTools(format: ThreadFormat, tools: unknown, entry: (t: Obj, index: number) => RequestTool): Tool[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) fail(format, '/tools', 'expected an array of tools');
  return tools.map((t, i): Tool => {
    if (!isObj(t)) fail(format, `/tools/${i}`, 'expected a tool object');
    const e = entry(t, i);
    if (e.kind === 'builtin') return { type: 'builtin', name: e.name, config: e.config };
    if (typeof e.name !== 'string' || !e.name) fail(format, e.namePointer, 'expected the function name');
    const tool: FunctionTool = { type: 'function', name: e.name, parameters: isObj(e.parameters) ? e.parameters : { type: 'object', properties: {} } };
    if (typeof e.description === 'string') tool.description = e.description;
    if (typeof e.strict === 'boolean') tool.strict = e.strict;
    return tool;
  });
}

/** An OpenAI built-in tool entry (`{ type: 'web_search', … }`): named by its `type`, its other fields the config. */
export function builtinByType(t: Obj, index: number): RequestTool {
  const { type, ...config } = t;
  return { kind: 'builtin', name: typeof type === 'string' && type ? type : `tool_${index}`, config };
}

/**
 * OpenAI's `tool_choice` and `parallel_tool_calls` as model params (`toolChoice` in the
 * thread's own spelling, `{ type: "function", name }`, from Chat's `{ function: { name } }` or
 * Responses' `{ name }`; shared/thread/model-controls.ts sends it per API). Adds the
 * fields it takes to `known`; a choice of another kind (a hosted tool) stays in `extra`.
 */
export function toolParams(json: Obj, params: ModelConfig['params'], known: string[]): void {
  const c = json.tool_choice;
  if (c === 'auto' || c === 'none' || c === 'required') params.toolChoice = c;
  else if (isObj(c) && c.type === 'function' && isObj(c.function) && typeof c.function.name === 'string') params.toolChoice = { type: 'function', name: c.function.name };
  else if (isObj(c) && c.type === 'function' && typeof c.name === 'string') params.toolChoice = { type: 'function', name: c.name };
  if (params.toolChoice !== undefined) known.push('tool_choice');
  if (typeof json.parallel_tool_calls === 'boolean') {
    params.parallelToolCalls = json.parallel_tool_calls;
    known.push('parallel_tool_calls');
  }
}

/** Joins system/developer texts into one system prompt. */
export function joinSystem(parts: string[]): string {
  return parts.filter((p) => p !== '').join('\n\n');
}
