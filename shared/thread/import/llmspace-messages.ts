/**
 * LLM Space messages, tools and model settings → Stepwise (see ./llmspace.ts for the format).
 * Images are `{ type: "image", mimeType, data }` (current files) or `{ type: "image_data", … }`
 * (older ones), in user messages and tool outputs; `data` may be `"blob:sha256:<hash>"`, a
 * reference into the file's `blobs` table, resolved here. Browser-safe.
 */
import type { AssistantMessage, ImagePart, Message, TextPart, ToolCall, ToolOutput, UserMessage } from '../messages';
import type { ModelConfig } from '../model-config';
import type { Tool } from '../tools';
import type { ThreadProblem } from '../validate';
import { effortOf, fail, isObj, type Obj } from './common';
import { newId } from '../ids';

export const F = 'llmspace' as const;
const BLOB_REF = 'blob:sha256:';

/** What converting one LLM Space document needs: its blob table, and where to note what cannot be kept. */
export interface LlmSpaceCtx {
  blobs: Obj;
  notes: ThreadProblem[];
}

/** A text or image part (`image` or `image_data`), or an error naming `at`. */
function part(p: unknown, at: string, ctx: LlmSpaceCtx): TextPart | ImagePart {
  if (isObj(p) && p.type === 'text' && typeof p.text === 'string') return { type: 'text', text: p.text };
  if (isObj(p) && (p.type === 'image' || p.type === 'image_data')) {
    if (typeof p.mimeType !== 'string' || !p.mimeType) fail(F, `${at}/mimeType`, 'an image needs its MIME type');
    if (typeof p.data !== 'string') fail(F, `${at}/data`, 'an image needs its base64 data');
    return { type: 'image', mimeType: p.mimeType, data: unpack(p.data, `${at}/data`, ctx.blobs) };
  }
  fail(F, at, 'expected a text part or an image part ({ type: "image", mimeType, data })');
}

function unpack(data: string, at: string, blobs: Obj): string {
  if (!data.startsWith(BLOB_REF)) return data;
  const hash = data.slice(BLOB_REF.length);
  const found = blobs[hash];
  if (typeof found !== 'string') fail(F, at, `image refers to blob ${hash.slice(0, 12)}…, which is not in the file's "blobs" table`);
  return found;
}

/** The messages of a `context.messages` array at pointer `at`. */
export function messagesOf(raw: unknown, at: string, ctx: LlmSpaceCtx): Message[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(F, at, 'expected an array');
  return raw.map((m, i) => message(m, `${at}/${i}`, ctx));
}

function message(m: unknown, at: string, ctx: LlmSpaceCtx): Message {
  if (!isObj(m)) fail(F, at, 'expected a message object');
  const id = typeof m.id === 'string' && m.id ? m.id : newId('msg');
  if (!Array.isArray(m.content)) fail(F, `${at}/content`, 'expected an array');
  if (m.role === 'user') {
    const content: UserMessage['content'] = m.content.map((p, i) => part(p, `${at}/content/${i}`, ctx));
    return { id, role: 'user', content };
  }
  if (m.role !== 'assistant') fail(F, `${at}/role`, `expected "user" or "assistant", got ${JSON.stringify(m.role)}`);
  const a: AssistantMessage = { id, role: 'assistant', content: [] };
  if (typeof m.thinking === 'string' && m.thinking) a.content.push({ type: 'thinking', thinking: m.thinking });
  m.content.forEach((p, i) => {
    if (isObj(p) && p.type === 'text' && typeof p.text === 'string') a.content.push({ type: 'text', text: p.text });
    else fail(F, `${at}/content/${i}`, 'expected a text part');
  });
  if (m.toolCalls !== undefined) {
    if (!Array.isArray(m.toolCalls)) fail(F, `${at}/toolCalls`, 'expected an array');
    a.toolCalls = m.toolCalls.map((c, j) => toolCall(c, `${at}/toolCalls/${j}`, ctx));
  }
  const usage = usageOf(m.usage, `${at}/usage`, ctx);
  if (usage) a.usage = usage;
  if (isObj(m.timing)) {
    a.timing = {};
    if (typeof m.timing.firstTokenMs === 'number') a.timing.firstTokenMs = m.timing.firstTokenMs;
    if (typeof m.timing.durationMs === 'number') a.timing.durationMs = m.timing.durationMs;
  }
  return a;
}

function toolCall(c: unknown, at: string, ctx: LlmSpaceCtx): ToolCall {
  if (!isObj(c) || !isObj(c.input) || typeof c.input.name !== 'string') fail(F, `${at}/input`, 'expected { name, arguments }');
  const call: ToolCall = {
    id: typeof c.id === 'string' && c.id ? c.id : newId('call'),
    name: c.input.name,
    arguments: isObj(c.input.arguments) ? c.input.arguments : {},
  };
  if (typeof c.input.partialArguments === 'string' && c.input.partialArguments) call.rawArguments = c.input.partialArguments;
  if (c.output !== undefined) {
    if (!isObj(c.output) || !Array.isArray(c.output.content)) fail(F, `${at}/output/content`, 'expected an array of parts');
    const content: ToolOutput['content'] = c.output.content.map((p, k) => part(p, `${at}/output/content/${k}`, ctx));
    call.output = { content, isError: c.output.isError === true };
  }
  return call;
}

/** LLM Space `ModelUsage` → Usage; its cost (which Stepwise does not keep) goes to the notes. */
export function usageOf(u: unknown, at: string, ctx: LlmSpaceCtx): AssistantMessage['usage'] {
  if (!isObj(u) || typeof u.input !== 'number' || typeof u.output !== 'number') return undefined;
  const usage: NonNullable<AssistantMessage['usage']> = { inputTokens: u.input, outputTokens: u.output };
  if (typeof u.cacheRead === 'number') usage.cacheReadTokens = u.cacheRead;
  if (typeof u.cacheWrite === 'number') usage.cacheWriteTokens = u.cacheWrite;
  if (typeof u.reasoning === 'number') usage.reasoningTokens = u.reasoning;
  if (isObj(u.cost) && typeof u.cost.total === 'number' && u.cost.total > 0) {
    ctx.notes.push({ pointer: `${at}/cost`, message: `the provider-reported cost (${u.cost.total}) is not kept; Stepwise prices tokens from its own price table` });
  }
  return usage;
}

/** LLM Space `model` → ModelConfig (a thread without a model gets the offline `scripted` model). */
export function modelOf(model: unknown): ModelConfig {
  if (!isObj(model)) return { provider: 'scripted', id: 'scripted', params: {} };
  const p = isObj(model.params) ? model.params : {};
  const params: ModelConfig['params'] = {};
  if (typeof p.temperature === 'number') params.temperature = p.temperature;
  if (typeof p.maxTokens === 'number' && Number.isInteger(p.maxTokens) && p.maxTokens >= 1) params.maxTokens = p.maxTokens;
  const effort = effortOf(p.reasoning);
  if (effort) params.reasoning = { effort };
  if (p.responseType !== undefined) params.responseFormat = p.responseType;
  const extra: Record<string, unknown> = isObj(p.extra) ? { ...p.extra } : {};
  if (p.reasoning !== undefined && !effort) extra.reasoning = p.reasoning;
  if (Object.keys(extra).length) params.extra = extra;
  return { provider: typeof model.provider === 'string' && model.provider ? model.provider : 'openai', id: typeof model.id === 'string' ? model.id : '', params };
}

/**
 * LLM Space tools → Stepwise tools: `function`; `mcp` (current: `serverId`, `serverName`,
 * `toolName` on the tool; older: a `source` object); `builtin` (LLM Space's own runtime tools:
 * the definition is kept, `icon` / `terminate` / `strict` in `config`, and `terminate` — a tool
 * a person answers — as `requiresApproval`).
 */
export function toolsOf(tools: unknown, at: string): Tool[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) fail(F, at, 'expected an array of tools');
  return tools.map((t, i): Tool => {
    if (!isObj(t) || typeof t.name !== 'string' || !t.name) fail(F, `${at}/${i}/name`, 'expected the tool name');
    const parameters = isObj(t.parameters) ? t.parameters : { type: 'object', properties: {} };
    const description = typeof t.description === 'string' ? { description: t.description } : {};
    const src = t.type === 'mcp' ? t : isObj(t.source) && t.source.type === 'mcp' ? t.source : undefined;
    if (src) {
      const server = typeof src.serverName === 'string' && src.serverName ? src.serverName : typeof src.serverId === 'string' ? src.serverId : '';
      if (!server) fail(F, `${at}/${i}/serverName`, 'an MCP tool needs its server name');
      if (typeof src.toolName !== 'string' || !src.toolName) fail(F, `${at}/${i}/toolName`, 'an MCP tool needs its name on the server');
      return { type: 'mcp', name: t.name, ...description, server, toolName: src.toolName, inputSchema: parameters };
    }
    if (t.type === 'builtin') {
      const config: Record<string, unknown> = { origin: 'llmspace' };
      for (const k of ['icon', 'terminate', 'strict'] as const) if (t[k] !== undefined) config[k] = t[k];
      return { type: 'builtin', name: t.name, ...description, parameters, config, ...(t.terminate === true ? { requiresApproval: true } : {}) };
    }
    return { type: 'function', name: t.name, ...description, parameters };
  });
}
