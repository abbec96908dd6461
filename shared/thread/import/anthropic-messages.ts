/**
 * Anthropic Messages request JSON → Thread (API reference: POST /v1/messages).
 * - `system` (a string or text blocks) becomes the system prompt;
 * - user blocks: `text`, `image` (base64 or url source), `document` (base64 PDF, url or text
 *   source, with title, context and `citations`), each with its `cache_control`; `tool_result`
 *   (attached to the `tool_use` with the same id; `content` a string or text/image blocks, a
 *   url image there stays as `[image: url]` text; `is_error` kept);
 * - assistant blocks: `text`, `thinking` (with its signature), `redacted_thinking` (opaque data),
 *   `tool_use` (input kept as the arguments object);
 * - `tools` with `input_schema` become function tools; server tools (with a versioned `type`)
 *   become builtin tools;
 * - max_tokens, temperature and `thinking: { type: "enabled", budget_tokens }` map to model
 *   params; every other request field is kept in `model.params.extra`;
 * - what cannot be kept (cache_control on the system prompt, tools and tool results; the
 *   citations of earlier answers) is listed in `opts.notes`.
 */
import type { AssistantMessage, DocumentPart, ImagePart, ImageUrlPart, TextPart, ToolResultPart, UserMessage } from '../messages';
import type { ModelConfig } from '../model-config';
import type { Thread } from '../schema';
import type { Tool } from '../tools';
import { MessageBuilder, extraFields, fail, finishThread, isObj, requestTools, type ImportOptions, type Obj } from './common';
import { toolOutput } from '../tool-output';

const F = 'anthropic-messages' as const;

/** Converts an Anthropic Messages request body. Throws ImportError naming the input pointer. */
export function importAnthropicMessages(json: unknown, opts: ImportOptions = {}): Thread {
  if (!isObj(json) || !Array.isArray(json.messages)) fail(F, '/messages', 'expected an array of messages');
  const b = new MessageBuilder(F);
  const notes = opts.notes ?? [];
  json.messages.forEach((m, i) => {
    const at = `/messages/${i}`;
    if (!isObj(m)) fail(F, at, 'expected a message object');
    const blocks: unknown[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : fail(F, `${at}/content`, 'expected a string or an array of content blocks');
    if (m.role === 'user') user(b, blocks, `${at}/content`, notes);
    else if (m.role === 'assistant') assistant(b, blocks, `${at}/content`, notes);
    else fail(F, `${at}/role`, `expected "user" or "assistant", got ${JSON.stringify(m.role)}`);
  });
  return finishThread(F, {
    title: opts.title,
    fallbackTitle: 'Imported messages',
    model: modelOf(json),
    systemPrompt: systemOf(json.system, notes),
    tools: toolsOf(json.tools, notes),
    messages: b.messages,
  });
}

function user(b: MessageBuilder, blocks: unknown[], at: string, notes: ImportNotes): void {
  const content: UserMessage['content'] = [];
  eachBlock(blocks, at, (block, bat) => {
    switch (block.type) {
      case 'text':
        content.push(withCache(textBlock(block, bat), block));
        return;
      case 'image':
        content.push(withCache(image(block, bat, 'message'), block));
        return;
      case 'document':
        content.push(withCache(documentOf(block, bat), block));
        return;
      case 'tool_result': {
        const parts = resultParts(block.content, `${bat}/content`);
        if (block.cache_control !== undefined) notes.push({ pointer: `${bat}/cache_control`, message: 'cache_control on a tool result is not kept' });
        b.toolResult(block.tool_use_id, toolOutput(parts, block.is_error === true), `${bat}/tool_use_id`);
        return;
      }
      default:
        fail(F, `${bat}/type`, `block type ${JSON.stringify(block.type)} is not supported in a user message (supported: "text", "image", "document", "tool_result")`);
    }
  });
  b.user(content);
}

type ImportNotes = { pointer: string; message: string }[];

/** A part with the block's `cache_control`, kept as written. */
function withCache<T extends UserMessage['content'][number] | TextPart>(part: T, block: Obj): T {
  return isObj(block.cache_control) ? { ...part, cacheControl: block.cache_control } : part;
}

/** A `document` block: base64 (PDF), url or text source, with title, context and citations. */
function documentOf(block: Obj, at: string): DocumentPart {
  const src = block.source;
  if (!isObj(src)) fail(F, `${at}/source`, 'expected a document source');
  let source: DocumentPart['source'];
  if (src.type === 'base64' || src.type === 'text') {
    if (typeof src.media_type !== 'string' || typeof src.data !== 'string') fail(F, `${at}/source`, `a ${src.type} document needs media_type and data`);
    source = { type: src.type, mediaType: src.media_type, data: src.data };
  } else if (src.type === 'url') {
    if (typeof src.url !== 'string' || !/^https?:\/\//i.test(src.url)) fail(F, `${at}/source/url`, 'expected an http(s) URL');
    source = { type: 'url', url: src.url };
  } else {
    fail(F, `${at}/source/type`, `document source ${JSON.stringify(src.type)} is not supported (supported: "base64", "url", "text")`);
  }
  const doc: DocumentPart = { type: 'document', source };
  if (typeof block.title === 'string') doc.title = block.title;
  if (typeof block.context === 'string') doc.context = block.context;
  if (isObj(block.citations) && typeof block.citations.enabled === 'boolean') doc.citations = { enabled: block.citations.enabled };
  return doc;
}

function assistant(b: MessageBuilder, blocks: unknown[], at: string, notes: ImportNotes): void {
  b.closeAssistant();
  const a: AssistantMessage = b.assistant();
  eachBlock(blocks, at, (block, bat) => {
    switch (block.type) {
      case 'text':
        a.content.push(textBlock(block, bat));
        if (block.citations !== undefined) notes.push({ pointer: `${bat}/citations`, message: 'the citations of an answer are not kept (its text is)' });
        return;
      case 'thinking': {
        if (typeof block.thinking !== 'string') fail(F, `${bat}/thinking`, 'expected a string');
        a.content.push({ type: 'thinking', thinking: block.thinking, ...(typeof block.signature === 'string' ? { signature: block.signature } : {}) });
        return;
      }
      case 'redacted_thinking':
        if (typeof block.data !== 'string') fail(F, `${bat}/data`, 'expected a string');
        a.content.push({ type: 'thinking', thinking: '', redacted: true, data: block.data });
        return;
      case 'tool_use':
        if (typeof block.name !== 'string') fail(F, `${bat}/name`, 'expected the tool name');
        if (block.input !== undefined && !isObj(block.input)) fail(F, `${bat}/input`, 'expected an object');
        b.toolCall({ id: typeof block.id === 'string' ? block.id : undefined, name: block.name, arguments: (block.input as Obj | undefined) ?? {} }, `${bat}/id`);
        return;
      default:
        fail(F, `${bat}/type`, `block type ${JSON.stringify(block.type)} is not supported in an assistant message (supported: "text", "thinking", "redacted_thinking", "tool_use")`);
    }
  });
}

/** Calls `visit` with each content block of a message and its JSON pointer; a block must be an object. */
function eachBlock(blocks: unknown[], at: string, visit: (block: Obj, at: string) => void): void {
  blocks.forEach((block, i) => {
    const bat = `${at}/${i}`;
    if (!isObj(block)) fail(F, bat, 'expected a content block');
    visit(block, bat);
  });
}

/** A `text` block as a text part. */
function textBlock(block: Obj, at: string): TextPart {
  if (typeof block.text !== 'string') fail(F, `${at}/text`, 'expected a string');
  return { type: 'text', text: block.text };
}

function image(block: Obj, at: string, where: 'message'): ImagePart | ImageUrlPart;
function image(block: Obj, at: string): ImagePart | { type: 'text'; text: string };
function image(block: Obj, at: string, where?: 'message'): ImagePart | ImageUrlPart | { type: 'text'; text: string } {
  const src = block.source;
  if (!isObj(src)) fail(F, `${at}/source`, 'expected an image source');
  if (src.type === 'base64') {
    if (typeof src.media_type !== 'string' || typeof src.data !== 'string') fail(F, `${at}/source`, 'a base64 image needs media_type and data');
    return { type: 'image', mimeType: src.media_type, data: src.data };
  }
  if (src.type === 'url' && typeof src.url === 'string') {
    if (where === 'message' && /^https?:\/\//i.test(src.url)) return { type: 'image', url: src.url };
    return { type: 'text', text: `[image: ${src.url}]` };
  }
  fail(F, `${at}/source/type`, `image source ${JSON.stringify(src.type)} is not supported (supported: "base64", "url")`);
}

function resultParts(content: unknown, at: string): ToolResultPart[] {
  if (content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) fail(F, at, 'expected a string or an array of blocks');
  return content.map((p, i) => {
    if (isObj(p) && p.type === 'text' && typeof p.text === 'string') return { type: 'text', text: p.text };
    if (isObj(p) && p.type === 'image') return image(p, `${at}/${i}`);
    fail(F, `${at}/${i}`, 'expected a text or image block');
  });
}

function systemOf(system: unknown, notes: ImportNotes): string {
  if (system === undefined) return '';
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) fail(F, '/system', 'expected a string or an array of text blocks');
  return system
    .map((s, i) => {
      if (!isObj(s) || s.type !== 'text' || typeof s.text !== 'string') fail(F, `/system/${i}`, 'expected a text block');
      if (s.cache_control !== undefined) notes.push({ pointer: `/system/${i}/cache_control`, message: 'cache_control on the system prompt is not kept (the system prompt is one text)' });
      return s.text;
    })
    .join('\n\n');
}

function modelOf(json: Obj): ModelConfig {
  const params: ModelConfig['params'] = {};
  const known = ['model', 'messages', 'system', 'tools', 'stream'];
  if (typeof json.temperature === 'number') {
    params.temperature = json.temperature;
    known.push('temperature');
  }
  if (typeof json.max_tokens === 'number' && Number.isInteger(json.max_tokens) && json.max_tokens >= 1) {
    params.maxTokens = json.max_tokens;
    known.push('max_tokens');
  }
  const t = json.thinking;
  if (isObj(t) && t.type === 'enabled' && typeof t.budget_tokens === 'number' && Number.isInteger(t.budget_tokens) && t.budget_tokens >= 0) {
    params.reasoning = { budgetTokens: t.budget_tokens };
    known.push('thinking');
  }
  const extra = extraFields(json, known);
  if (extra) params.extra = extra;
  return { provider: 'anthropic', id: typeof json.model === 'string' ? json.model : '', params };
}

function toolsOf(tools: unknown, notes: ImportNotes): Tool[] {
  return requestTools(F, tools, (t, i) => {
    if (typeof t.name !== 'string' || !t.name) fail(F, `/tools/${i}/name`, 'expected the tool name');
    if (isObj(t.input_schema) && (t.type === undefined || t.type === 'custom')) {
      if (t.cache_control !== undefined) notes.push({ pointer: `/tools/${i}/cache_control`, message: 'cache_control on a tool is not kept' });
      return { kind: 'function', name: t.name, namePointer: `/tools/${i}/name`, description: t.description, parameters: t.input_schema };
    }
    const { name, ...config } = t;
    return { kind: 'builtin', name, config };
  });
}
