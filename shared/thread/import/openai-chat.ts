/**
 * OpenAI Chat Completions request JSON → Thread (API reference: POST /v1/chat/completions).
 * - `system` and `developer` messages become the system prompt (joined in order);
 * - user content: a string, or parts `text` and `image_url` (data: URLs become images, http(s)
 *   URLs URL images, `detail` kept; in tool results a URL stays as `[image: url]` text);
 * - assistant `tool_calls[].function.arguments` (JSON text) are parsed; text that is not a JSON
 *   object is kept in `rawArguments`; the deprecated `function_call` is read too;
 * - `tool` messages attach to the call with the same `tool_call_id` (legacy `function` messages
 *   to the last unanswered call of that name);
 * - `tools[].function` become function tools; other tool kinds become builtin tools;
 * - temperature, max_completion_tokens/max_tokens, reasoning_effort, response_format,
 *   tool_choice and parallel_tool_calls map to model params, `function.strict` to the tool;
 *   every other request field is kept in `model.params.extra`.
 */
import type { ModelConfig } from '../model-config';
import type { Thread } from '../schema';
import type { Tool } from '../tools';
import type { ToolResultPart, UserMessage } from '../messages';
import { MessageBuilder, builtinByType, effortOf, extraFields, fail, finishThread, imageFromUrl, isObj, joinSystem, messageImage, parseArguments, requestTools, toolParams, type ImportOptions } from './common';
import { toolOutput } from '../tool-output';

const F = 'openai-chat' as const;

/** Converts an OpenAI Chat Completions request body. Throws ImportError naming the input pointer. */
export function importOpenAIChat(json: unknown, opts: ImportOptions = {}): Thread {
  if (!isObj(json) || !Array.isArray(json.messages)) fail(F, '/messages', 'expected an array of messages');
  const b = new MessageBuilder(F);
  const system: string[] = [];
  json.messages.forEach((m, i) => {
    const at = `/messages/${i}`;
    if (!isObj(m)) fail(F, at, 'expected a message object');
    switch (m.role) {
      case 'system':
      case 'developer':
        system.push(textOf(m.content, `${at}/content`));
        return;
      case 'user':
        b.user(userContent(m.content, `${at}/content`));
        return;
      case 'assistant':
        assistant(b, m, at);
        return;
      case 'tool':
        b.toolResult(m.tool_call_id, toolOutput(resultParts(m.content, `${at}/content`)), `${at}/tool_call_id`);
        return;
      case 'function':
        b.toolResult(b.lastOpenCallNamed(m.name) ?? `function:${typeof m.name === 'string' ? m.name : ''}`, toolOutput(resultParts(m.content, `${at}/content`)), `${at}/name`);
        return;
      default:
        fail(F, `${at}/role`, `expected "system", "developer", "user", "assistant" or "tool", got ${JSON.stringify(m.role)}`);
    }
  });
  return finishThread(F, {
    title: opts.title,
    fallbackTitle: 'Imported chat',
    model: modelOf(json),
    systemPrompt: joinSystem(system),
    tools: toolsOf(json.tools),
    messages: b.messages,
  });
}

function assistant(b: MessageBuilder, m: Record<string, unknown>, at: string): void {
  b.closeAssistant();
  const a = b.assistant();
  // Reasoning text some OpenAI-compatible servers return (DeepSeek, vLLM, OpenRouter).
  const reasoning = m.reasoning_content ?? m.reasoning;
  if (typeof reasoning === 'string' && reasoning) a.content.push({ type: 'thinking', thinking: reasoning });
  if (m.content !== null && m.content !== undefined) {
    const text = textOf(m.content, `${at}/content`);
    if (text) a.content.push({ type: 'text', text });
  }
  if (typeof m.refusal === 'string' && m.refusal) a.stopReason = 'refusal';
  if (typeof m.refusal === 'string' && m.refusal && !a.content.length) a.content.push({ type: 'text', text: m.refusal });
  if (m.tool_calls !== undefined) {
    if (!Array.isArray(m.tool_calls)) fail(F, `${at}/tool_calls`, 'expected an array');
    m.tool_calls.forEach((c, j) => {
      const cat = `${at}/tool_calls/${j}`;
      if (!isObj(c) || !isObj(c.function)) fail(F, cat, 'expected { id, type: "function", function: { name, arguments } }');
      if (typeof c.function.name !== 'string') fail(F, `${cat}/function/name`, 'expected the tool name');
      b.toolCall({ id: typeof c.id === 'string' ? c.id : undefined, name: c.function.name, ...parseArguments(c.function.arguments) }, `${cat}/id`);
    });
  }
  if (isObj(m.function_call) && typeof m.function_call.name === 'string') {
    b.toolCall({ name: m.function_call.name, ...parseArguments(m.function_call.arguments) }, `${at}/function_call`);
  }
}

/** Text of a string or a list of text parts. */
function textOf(content: unknown, at: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) fail(F, at, 'expected a string or an array of content parts');
  return content
    .map((p, i) => {
      if (isObj(p) && p.type === 'text' && typeof p.text === 'string') return p.text;
      if (isObj(p) && p.type === 'refusal' && typeof p.refusal === 'string') return p.refusal;
      fail(F, `${at}/${i}`, `expected a text part here, got ${isObj(p) ? JSON.stringify(p.type) : typeof p}`);
    })
    .join('\n');
}

function userContent(content: unknown, at: string): UserMessage['content'] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) fail(F, at, 'expected a string or an array of content parts');
  return content.map((p, i) => {
    const pat = `${at}/${i}`;
    if (!isObj(p)) fail(F, pat, 'expected a content part');
    if (p.type === 'text' && typeof p.text === 'string') return { type: 'text', text: p.text };
    if (p.type === 'image_url') {
      const url = isObj(p.image_url) ? p.image_url.url : p.image_url;
      return messageImage(F, url, `${pat}/image_url/url`, isObj(p.image_url) ? p.image_url.detail : undefined);
    }
    fail(F, `${pat}/type`, `content part ${JSON.stringify(p.type)} is not supported in a user message (supported: "text", "image_url")`);
  });
}

function resultParts(content: unknown, at: string): ToolResultPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) fail(F, at, 'expected a string or an array of text parts');
  return content.map((p, i) => {
    if (isObj(p) && p.type === 'text' && typeof p.text === 'string') return { type: 'text', text: p.text };
    if (isObj(p) && p.type === 'image_url') return imageFromUrl(F, isObj(p.image_url) ? p.image_url.url : p.image_url, `${at}/${i}/image_url/url`);
    fail(F, `${at}/${i}`, 'expected a text part');
  });
}

function modelOf(json: Record<string, unknown>): ModelConfig {
  const params: ModelConfig['params'] = {};
  if (typeof json.temperature === 'number') params.temperature = json.temperature;
  const max = json.max_completion_tokens ?? json.max_tokens;
  if (typeof max === 'number' && Number.isInteger(max) && max >= 1) params.maxTokens = max;
  const effort = effortOf(json.reasoning_effort);
  if (effort) params.reasoning = { effort };
  if (json.response_format !== undefined) params.responseFormat = json.response_format;
  const known = ['model', 'messages', 'tools', 'temperature', 'stream', 'stream_options', 'response_format'];
  toolParams(json, params, known);
  if (typeof max === 'number') known.push('max_completion_tokens', 'max_tokens');
  if (effort) known.push('reasoning_effort');
  const extra = extraFields(json, known);
  if (extra) params.extra = extra;
  return { provider: 'openai', id: typeof json.model === 'string' ? json.model : '', params };
}

function toolsOf(tools: unknown): Tool[] {
  return requestTools(F, tools, (t, i) => {
    if (t.type !== 'function' && !isObj(t.function)) return builtinByType(t, i);
    const fn = isObj(t.function) ? t.function : {};
    return { kind: 'function', name: fn.name, namePointer: `/tools/${i}/function/name`, description: fn.description, parameters: fn.parameters, strict: fn.strict };
  });
}
