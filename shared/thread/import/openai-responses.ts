/**
 * OpenAI Responses request JSON → Thread (API reference: POST /v1/responses).
 * - `instructions` and `system`/`developer` input messages become the system prompt;
 * - `input` is a string (one user message) or a list of items: `message` (also the short
 *   `{ role, content }` form) with `input_text`/`output_text`/`refusal`/`input_image` parts,
 *   `function_call` (arguments as JSON text), `function_call_output` (matched by `call_id`),
 *   and `reasoning` (summary and reasoning text become a thinking part; `encrypted_content`
 *   is kept as that part's `signature`, to be sent back unchanged);
 * - consecutive assistant items (reasoning, message, function calls) form one assistant message;
 * - `tools` of type `function` become function tools, other kinds builtin tools;
 * - temperature, max_output_tokens, reasoning.effort and text.format map to model params;
 *   every other request field is kept in `model.params.extra`.
 */
import type { ModelConfig } from '../model-config';
import type { Thread } from '../schema';
import type { Tool } from '../tools';
import type { ToolResultPart, UserMessage } from '../messages';
import { MessageBuilder, builtinByType, effortOf, extraFields, fail, finishThread, imageFromUrl, isObj, joinSystem, messageImage, parseArguments, requestTools, toolParams, type ImportOptions, type Obj } from './common';
import { toolOutput } from '../tool-output';

const F = 'openai-responses' as const;

/** Converts an OpenAI Responses request body. Throws ImportError naming the input pointer. */
export function importOpenAIResponses(json: unknown, opts: ImportOptions = {}): Thread {
  if (!isObj(json)) fail(F, '', 'expected a request object');
  const b = new MessageBuilder(F);
  const system: string[] = [];
  if (typeof json.instructions === 'string') system.push(json.instructions);
  if (typeof json.input === 'string') b.user(json.input ? [{ type: 'text', text: json.input }] : []);
  else if (Array.isArray(json.input)) json.input.forEach((item, i) => inputItem(b, system, item, `/input/${i}`));
  else if (json.input !== undefined) fail(F, '/input', 'expected a string or an array of input items');
  return finishThread(F, {
    title: opts.title,
    fallbackTitle: 'Imported response',
    model: modelOf(json),
    systemPrompt: joinSystem(system),
    tools: toolsOf(json.tools),
    messages: b.messages,
  });
}

function inputItem(b: MessageBuilder, system: string[], item: unknown, at: string): void {
  if (!isObj(item)) fail(F, at, 'expected an input item object');
  const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
  switch (type) {
    case 'message':
      return message(b, system, item, at);
    case 'function_call': {
      if (typeof item.name !== 'string') fail(F, `${at}/name`, 'expected the function name');
      b.toolCall({ id: typeof item.call_id === 'string' ? item.call_id : undefined, name: item.name, ...parseArguments(item.arguments) }, `${at}/call_id`);
      return;
    }
    case 'function_call_output':
      b.toolResult(item.call_id, toolOutput(outputParts(item.output, `${at}/output`)), `${at}/call_id`);
      return;
    case 'reasoning': {
      const texts: string[] = [];
      for (const key of ['summary', 'content'] as const) {
        const list = item[key];
        if (Array.isArray(list)) for (const p of list) if (isObj(p) && typeof p.text === 'string') texts.push(p.text);
      }
      const part: { type: 'thinking'; thinking: string; signature?: string } = { type: 'thinking', thinking: texts.join('\n\n') };
      if (typeof item.encrypted_content === 'string') part.signature = item.encrypted_content;
      if (part.thinking || part.signature) b.assistant().content.push(part);
      return;
    }
    default:
      fail(F, `${at}/type`, `input item type ${JSON.stringify(type)} is not supported (supported: "message", "function_call", "function_call_output", "reasoning")`);
  }
}

function message(b: MessageBuilder, system: string[], m: Obj, at: string): void {
  if (m.role === 'system' || m.role === 'developer') {
    system.push(texts(m.content, `${at}/content`).join('\n'));
    return;
  }
  if (m.role === 'assistant') {
    const a = b.assistant();
    // Text after this turn's tool calls starts a new assistant message, keeping the order.
    if (a.toolCalls?.length) {
      b.closeAssistant();
    }
    const text = texts(m.content, `${at}/content`).join('\n');
    if (text) b.assistant().content.push({ type: 'text', text });
    return;
  }
  if (m.role === 'user') {
    b.user(userContent(m.content, `${at}/content`));
    return;
  }
  fail(F, `${at}/role`, `expected "user", "assistant", "system" or "developer", got ${JSON.stringify(m.role)}`);
}

function texts(content: unknown, at: string): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) fail(F, at, 'expected a string or an array of content parts');
  return content.map((p, i) => {
    if (isObj(p) && typeof p.text === 'string' && typeof p.type === 'string' && ['input_text', 'output_text', 'text'].includes(p.type)) return p.text;
    if (isObj(p) && p.type === 'refusal' && typeof p.refusal === 'string') return p.refusal;
    fail(F, `${at}/${i}`, `expected a text part here, got ${isObj(p) ? JSON.stringify(p.type) : typeof p}`);
  });
}

function userContent(content: unknown, at: string): UserMessage['content'] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) fail(F, at, 'expected a string or an array of content parts');
  return content.map((p, i) => {
    if (!isObj(p)) fail(F, `${at}/${i}`, 'expected a content part');
    if ((p.type === 'input_text' || p.type === 'text') && typeof p.text === 'string') return { type: 'text', text: p.text };
    if (p.type === 'input_image') {
      if (typeof p.image_url !== 'string') fail(F, `${at}/${i}/image_url`, 'only images given by image_url (a data: URL or a link) can be imported, not file_id');
      return messageImage(F, p.image_url, `${at}/${i}/image_url`, p.detail);
    }
    fail(F, `${at}/${i}/type`, `content part ${JSON.stringify(p.type)} is not supported in a user message (supported: "input_text", "input_image")`);
  });
}

function outputParts(output: unknown, at: string): ToolResultPart[] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  if (!Array.isArray(output)) fail(F, at, 'expected a string or an array of output parts');
  return output.map((p, i) => {
    if (isObj(p) && (p.type === 'input_text' || p.type === 'output_text') && typeof p.text === 'string') return { type: 'text', text: p.text };
    if (isObj(p) && p.type === 'input_image' && typeof p.image_url === 'string') return imageFromUrl(F, p.image_url, `${at}/${i}/image_url`);
    fail(F, `${at}/${i}`, 'expected an input_text or input_image part');
  });
}

function modelOf(json: Obj): ModelConfig {
  const params: ModelConfig['params'] = {};
  const known = ['model', 'input', 'instructions', 'tools', 'stream', 'stream_options'];
  toolParams(json, params, known);
  if (typeof json.temperature === 'number') {
    params.temperature = json.temperature;
    known.push('temperature');
  }
  const max = json.max_output_tokens;
  if (typeof max === 'number' && Number.isInteger(max) && max >= 1) {
    params.maxTokens = max;
    known.push('max_output_tokens');
  }
  const reasoning = isObj(json.reasoning) ? json.reasoning : undefined;
  const effort = effortOf(reasoning?.effort);
  if (effort && reasoning && Object.keys(reasoning).every((k) => k === 'effort')) {
    params.reasoning = { effort };
    known.push('reasoning');
  } else if (effort) {
    params.reasoning = { effort };
  }
  if (isObj(json.text) && json.text.format !== undefined && Object.keys(json.text).length === 1) {
    params.responseFormat = json.text.format;
    known.push('text');
  }
  const extra = extraFields(json, known);
  if (extra) params.extra = extra;
  return { provider: 'openai', id: typeof json.model === 'string' ? json.model : '', params };
}

function toolsOf(tools: unknown): Tool[] {
  return requestTools(F, tools, (t, i) =>
    t.type === 'function'
      ? { kind: 'function', name: t.name, namePointer: `/tools/${i}/name`, description: t.description, parameters: t.parameters, strict: t.strict }
      : builtinByType(t, i),
  );
}
