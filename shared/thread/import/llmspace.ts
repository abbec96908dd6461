/**
 * LLM Space thread files → Thread. The format as LLM Space (github.com/llm-space/llm-space,
 * packages/core/src/types) writes it:
 *
 *   { title?, model?: { provider, id, params: { maxTokens?, temperature?, reasoning?, responseType?, extra? } },
 *     context?: { systemPrompt?, tools?: [{ name, description, parameters, strict?,
 *                   source?: { type: "mcp", serverId, serverName, toolName } }],
 *                 variables?, variableVariants?: { active, variants: { [bucket]: { [name]: value } } },
 *                 messages?: Message[] },
 *     runHistory?, evaluations?, evaluationRubrics?, modelName?,
 *     blobs?: { [sha256 hex]: base64 } }
 *   user      { id, role: "user", content: ({ type: "text", text } | { type: "image_data", mimeType, data })[] }
 *   assistant { id, role: "assistant", content: { type: "text", text }[], thinking?: string,
 *               toolCalls?: [{ id, input: { name, arguments, partialArguments? },
 *                              output?: { content: { type: "text", text }[], isError? } }],
 *               usage?: { input, output, cacheRead, cacheWrite, reasoning?, totalTokens, cost }, timing? }
 *
 * Images over ~1 KB are packed: `image_data.data` is `"blob:sha256:<hash>"` and the base64 lives
 * in the file's `blobs` table; they are unpacked here. `runHistory` and evaluations (whole-thread
 * snapshots) are not carried over: Stepwise stores runs outside the document. Tools with an MCP
 * `source` become MCP tools on the server named by `serverName`.
 */
import type { AssistantMessage, Message, ModelConfig, Thread, Tool, UserMessage } from '../schema';
import { effortOf, fail, finishThread, isObj, type ImportOptions, type Obj } from './common';
import { newId } from '../ids';

const F = 'llmspace' as const;
const BLOB_REF = 'blob:sha256:';

/** Converts an LLM Space thread file. Throws ImportError naming the input pointer. */
export function importLlmSpace(json: unknown, opts: ImportOptions = {}): Thread {
  if (!isObj(json)) fail(F, '', 'expected a thread object');
  const blobs = isObj(json.blobs) ? json.blobs : {};
  const context = json.context === undefined ? {} : isObj(json.context) ? json.context : fail(F, '/context', 'expected an object');
  const rawMessages = context.messages === undefined ? [] : Array.isArray(context.messages) ? context.messages : fail(F, '/context/messages', 'expected an array');
  const messages = rawMessages.map((m, i) => message(m, `/context/messages/${i}`, blobs));
  return finishThread(F, {
    title: typeof json.title === 'string' && json.title ? json.title : opts.title,
    fallbackTitle: 'Imported LLM Space thread',
    model: modelOf(json.model),
    systemPrompt: typeof context.systemPrompt === 'string' ? context.systemPrompt : '',
    tools: toolsOf(context.tools),
    variables: variablesOf(context.variableVariants),
    messages,
  });
}

function message(m: unknown, at: string, blobs: Obj): Message {
  if (!isObj(m)) fail(F, at, 'expected a message object');
  const id = typeof m.id === 'string' && m.id ? m.id : newId('msg');
  if (!Array.isArray(m.content)) fail(F, `${at}/content`, 'expected an array');
  if (m.role === 'user') {
    const content: UserMessage['content'] = m.content.map((p, i) => {
      const pat = `${at}/content/${i}`;
      if (isObj(p) && p.type === 'text' && typeof p.text === 'string') return { type: 'text', text: p.text };
      if (isObj(p) && p.type === 'image_data' && typeof p.mimeType === 'string' && typeof p.data === 'string') {
        return { type: 'image', mimeType: p.mimeType, data: unpack(p.data, `${pat}/data`, blobs) };
      }
      fail(F, pat, 'expected a text or image_data part');
    });
    return { id, role: 'user', content };
  }
  if (m.role !== 'assistant') fail(F, `${at}/role`, `expected "user" or "assistant", got ${JSON.stringify(m.role)}`);
  const a: AssistantMessage = { id, role: 'assistant', content: [] };
  if (typeof m.thinking === 'string' && m.thinking) a.content.push({ type: 'thinking', thinking: m.thinking });
  m.content.forEach((p, i) => {
    if (isObj(p) && p.type === 'text' && typeof p.text === 'string') a.content.push({ type: 'text', text: p.text });
    else fail(F, `${at}/content/${i}`, 'expected a text part');
  });
  if (Array.isArray(m.toolCalls)) {
    a.toolCalls = m.toolCalls.map((c, j) => {
      const cat = `${at}/toolCalls/${j}`;
      if (!isObj(c) || !isObj(c.input) || typeof c.input.name !== 'string') fail(F, `${cat}/input`, 'expected { name, arguments }');
      const call: NonNullable<AssistantMessage['toolCalls']>[number] = {
        id: typeof c.id === 'string' && c.id ? c.id : newId('call'),
        name: c.input.name,
        arguments: isObj(c.input.arguments) ? c.input.arguments : {},
      };
      if (typeof c.input.partialArguments === 'string' && !isObj(c.input.arguments)) call.rawArguments = c.input.partialArguments;
      if (isObj(c.output)) {
        const content = Array.isArray(c.output.content) ? c.output.content : [];
        call.output = {
          content: content.map((p, k) => (isObj(p) && p.type === 'text' && typeof p.text === 'string' ? { type: 'text' as const, text: p.text } : fail(F, `${cat}/output/content/${k}`, 'expected a text part'))),
          isError: c.output.isError === true,
        };
      }
      return call;
    });
  }
  const u = m.usage;
  if (isObj(u) && typeof u.input === 'number' && typeof u.output === 'number') {
    a.usage = { inputTokens: u.input, outputTokens: u.output };
    if (typeof u.cacheRead === 'number') a.usage.cacheReadTokens = u.cacheRead;
    if (typeof u.cacheWrite === 'number') a.usage.cacheWriteTokens = u.cacheWrite;
    if (typeof u.reasoning === 'number') a.usage.reasoningTokens = u.reasoning;
  }
  if (isObj(m.timing)) {
    a.timing = {};
    if (typeof m.timing.firstTokenMs === 'number') a.timing.firstTokenMs = m.timing.firstTokenMs;
    if (typeof m.timing.durationMs === 'number') a.timing.durationMs = m.timing.durationMs;
  }
  return a;
}

function unpack(data: string, at: string, blobs: Obj): string {
  if (!data.startsWith(BLOB_REF)) return data;
  const hash = data.slice(BLOB_REF.length);
  const found = blobs[hash];
  if (typeof found !== 'string') fail(F, at, `image refers to blob ${hash.slice(0, 12)}…, which is not in the file's "blobs" table`);
  return found;
}

function modelOf(model: unknown): ModelConfig {
  // LLM Space lets a thread have no model yet; Stepwise's offline model stands in.
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

function toolsOf(tools: unknown): Tool[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((t, i): Tool => {
    if (!isObj(t) || typeof t.name !== 'string' || !t.name) fail(F, `/context/tools/${i}/name`, 'expected the tool name');
    const parameters = isObj(t.parameters) ? t.parameters : { type: 'object', properties: {} };
    const description = typeof t.description === 'string' ? { description: t.description } : {};
    const src = t.source;
    if (isObj(src) && src.type === 'mcp' && typeof src.toolName === 'string') {
      const server = typeof src.serverName === 'string' && src.serverName ? src.serverName : String(src.serverId ?? '');
      if (!server) fail(F, `/context/tools/${i}/source/serverName`, 'an MCP tool needs its server name');
      return { type: 'mcp', name: t.name, ...description, server, toolName: src.toolName, inputSchema: parameters };
    }
    return { type: 'function', name: t.name, ...description, parameters };
  });
}

function variablesOf(vv: unknown): Record<string, string> | undefined {
  if (!isObj(vv) || !isObj(vv.variants)) return undefined;
  const active = typeof vv.active === 'string' ? vv.variants[vv.active] : undefined;
  if (!isObj(active)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(active)) if (typeof v === 'string') out[k] = v;
  return Object.keys(out).length ? out : undefined;
}
