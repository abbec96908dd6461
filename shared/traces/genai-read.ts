/**
 * The GenAI conventions' message JSON → Stepwise messages (the inverse of `toGenAiMessages` in
 * ./genai.ts; docs/architecture.md#traces). A `tool` message's `tool_call_response` parts answer
 * the tool calls of the assistant messages before it; `system` messages become the system
 * prompt; parts Stepwise has no place for are listed, never silently dropped. Browser-safe.
 */
import type { AssistantMessage, Message, ToolCall, UserMessage } from '../thread/messages';
import type { ThreadProblem } from '../thread/validate';
import { finishReason, toolOutputOf } from './genai';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What {@link fromGenAiMessages} gives: the messages, the system text found among them, and what was left out. */
export interface ReadMessages {
  messages: Message[];
  system: string[];
}

/** A stop reason for a message's `finish_reason`: Stepwise's own name where one maps (`tool_call` → `tool_calls`). */
export function stopReasonOf(finish: unknown): string | undefined {
  if (typeof finish !== 'string') return undefined;
  return finish === 'tool_call' ? 'tool_calls' : finish;
}

/** Parses a JSON-text attribute (the conventions' content attributes); undefined when it is not JSON. */
export function jsonAttr(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** Text of a `system_instructions` value (parts) or of a plain string. */
export function systemText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v.flatMap((p) => (isObj(p) && typeof p.content === 'string' ? [p.content] : [])).join('\n');
}

/**
 * Converts `list` (a parsed `gen_ai.input.messages` or `.output.messages` value at `at`) into
 * messages; `ids(i)` gives the i-th message's id. Problems name the part's pointer.
 */
export function fromGenAiMessages(list: unknown, at: string, ids: (i: number) => string, problems: ThreadProblem[]): ReadMessages {
  const out: ReadMessages = { messages: [], system: [] };
  if (!Array.isArray(list)) {
    problems.push({ pointer: at, message: 'expected an array of messages { role, parts }' });
    return out;
  }
  const calls = new Map<string, ToolCall>();
  list.forEach((m, i) => {
    const mAt = `${at}/${i}`;
    if (!isObj(m) || !Array.isArray(m.parts)) return void problems.push({ pointer: mAt, message: 'expected a message { role, parts }' });
    const parts = m.parts as unknown[];
    if (m.role === 'system') return void out.system.push(systemText(parts));
    if (m.role === 'tool') {
      parts.forEach((p, j) => {
        const call = isObj(p) && p.type === 'tool_call_response' && typeof p.id === 'string' ? calls.get(p.id) : undefined;
        if (call && isObj(p)) call.output = toolOutputOf(p.response);
        else problems.push({ pointer: `${mAt}/parts/${j}`, message: 'a tool response that answers no tool call before it' });
      });
      return;
    }
    const assistant = m.role === 'assistant';
    if (!assistant && m.role !== 'user') return void problems.push({ pointer: `${mAt}/role`, message: `role ${JSON.stringify(m.role)} has no place in a thread (user, assistant, tool, system)` });
    const content: Obj[] = [];
    const toolCalls: ToolCall[] = [];
    parts.forEach((p, j) => {
      const pAt = `${mAt}/parts/${j}`;
      if (!isObj(p)) return void problems.push({ pointer: pAt, message: 'expected a part { type }' });
      if (p.type === 'text' && typeof p.content === 'string') content.push({ type: 'text', text: p.content });
      else if (p.type === 'reasoning' && typeof p.content === 'string' && assistant) content.push({ type: 'thinking', thinking: p.content });
      else if (p.type === 'tool_call' && assistant && typeof p.name === 'string') {
        const id = typeof p.id === 'string' && p.id ? p.id : `call_${i}_${j}`;
        const args = jsonAttr(p.arguments);
        const call: ToolCall = isObj(args) ? { id, name: p.name, arguments: args } : { id, name: p.name, arguments: {}, rawArguments: typeof p.arguments === 'string' ? p.arguments : JSON.stringify(p.arguments ?? null) };
        toolCalls.push(call);
        calls.set(id, call);
      } else if (p.type === 'blob' && p.modality === 'image' && typeof p.content === 'string' && !assistant) content.push({ type: 'image', mimeType: typeof p.mime_type === 'string' ? p.mime_type : 'image/png', data: p.content });
      else if (p.type === 'uri' && p.modality === 'image' && typeof p.uri === 'string' && /^https?:\/\//.test(p.uri) && !assistant) content.push({ type: 'image', url: p.uri, ...(typeof p.mime_type === 'string' ? { mimeType: p.mime_type } : {}) });
      else if (typeof p.type === 'string' && p.type.startsWith('stepwise.')) content.push({ ...p, type: p.type.slice('stepwise.'.length) });
      else problems.push({ pointer: pAt, message: `part ${JSON.stringify(p.type)} of a ${String(m.role)} message is not kept` });
    });
    const id = ids(out.messages.length);
    if (assistant) {
      const a: AssistantMessage = { id, role: 'assistant', content: content as AssistantMessage['content'] };
      if (toolCalls.length) a.toolCalls = toolCalls;
      const stop = stopReasonOf(m.finish_reason);
      if (stop && finishReason(stop) !== 'stop') a.stopReason = stop;
      out.messages.push(a);
    } else out.messages.push({ id, role: 'user', content: content as UserMessage['content'] });
  });
  return out;
}
