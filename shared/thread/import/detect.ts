/**
 * Tells which format a parsed JSON document is in, by the fields each format requires or alone
 * uses. Browser-safe.
 */
import { isObj, type Obj, type ThreadFormat } from './common';

/** What `detectFormat` looks for, for the "unknown format" message. */
export const FORMAT_HINTS =
  'looked for a Stepwise thread (version, context, runRefs), an LLM Space thread file (context.messages, blobs), ' +
  'an OpenAI Chat Completions request (messages with system/tool roles, tool_calls, image_url parts), ' +
  'an OpenAI Responses request (input, instructions), an Anthropic Messages request (messages with content blocks, system, max_tokens), ' +
  'and an OpenTelemetry trace (OTLP/JSON resourceSpans)';

const LLMSPACE_KEYS = ['blobs', 'runHistory', 'evaluations', 'evaluationRubrics', 'modelName'];

/** The format of `json`; 'unknown' when none fits. */
export function detectFormat(json: unknown): ThreadFormat {
  if (!isObj(json)) return 'unknown';
  if (Array.isArray(json.resourceSpans)) return 'otlp-genai';
  if (typeof json.version === 'number' || Array.isArray(json.runRefs)) return 'stepwise';
  if (Array.isArray(json.messages)) return chatOrAnthropic(json);
  if (typeof json.input === 'string' || Array.isArray(json.input) || (typeof json.instructions === 'string' && json.context === undefined)) {
    return 'openai-responses';
  }
  if (isObj(json.context) || LLMSPACE_KEYS.some((k) => json[k] !== undefined)) {
    if (LLMSPACE_KEYS.some((k) => json[k] !== undefined) || llmSpaceMessages(json.context)) return 'llmspace';
    // A thread document without a version: a legacy Stepwise file when it has an id (LLM Space files have none).
    return typeof json.id === 'string' ? 'stepwise' : 'llmspace';
  }
  return 'unknown';
}

function llmSpaceMessages(context: unknown): boolean {
  if (!isObj(context)) return false;
  if (context.variableVariants !== undefined || context.snapshot !== undefined) return true;
  const messages = Array.isArray(context.messages) ? context.messages : [];
  return messages.some(
    (m) =>
      isObj(m) &&
      ((Array.isArray(m.content) && m.content.some((p) => isObj(p) && p.type === 'image_data')) ||
        (Array.isArray(m.toolCalls) && m.toolCalls.some((c) => isObj(c) && isObj(c.input)))),
  );
}

/** Both APIs take `messages`; each has fields and blocks the other lacks. */
function chatOrAnthropic(json: Obj): ThreadFormat {
  let openai = 0;
  let anthropic = 0;
  for (const m of json.messages as unknown[]) {
    if (!isObj(m)) continue;
    if (m.role === 'system' || m.role === 'developer' || m.role === 'tool' || m.role === 'function') openai++;
    if (m.tool_calls !== undefined || m.function_call !== undefined || m.tool_call_id !== undefined) openai++;
    if (Array.isArray(m.content)) {
      for (const p of m.content) {
        if (!isObj(p)) continue;
        if (p.type === 'image_url' || p.type === 'input_audio' || p.type === 'refusal') openai++;
        if (typeof p.type === 'string' && ['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'document'].includes(p.type)) anthropic++;
        if (p.type === 'image' && isObj(p.source)) anthropic++;
      }
    }
  }
  if (json.system !== undefined || json.thinking !== undefined || json.stop_sequences !== undefined || json.top_k !== undefined) anthropic++;
  if (Array.isArray(json.tools)) {
    for (const t of json.tools) {
      if (isObj(t) && t.input_schema !== undefined) anthropic++;
      if (isObj(t) && t.function !== undefined) openai++;
    }
  }
  if (json.max_completion_tokens !== undefined || json.response_format !== undefined || json.reasoning_effort !== undefined) openai++;
  if (anthropic !== openai) return anthropic > openai ? 'anthropic-messages' : 'openai-chat';
  // Plain user/assistant text fits both: go by the model name, then by Anthropic's required max_tokens.
  if (typeof json.model === 'string' && /claude/i.test(json.model)) return 'anthropic-messages';
  return 'openai-chat';
}
