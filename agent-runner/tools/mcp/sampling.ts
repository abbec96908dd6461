/**
 * MCP sampling ↔ Stepwise nested LLM calls: a server's `sampling/createMessage` params become
 * a `NestedLlmCall` (a `sampling` node under the tool node), and the call's result becomes
 * the `CreateMessageResult` the server gets (MCP spec 2025-06-18, client/sampling).
 */
import { randomUUID } from 'node:crypto';
import type { Message } from '../../../shared/thread/messages';
import type { ModelConfig } from '../../../shared/thread/model-config';
import type { Thread } from '../../../shared/thread/schema';
import type { LlmCallResult } from '../../providers/types';
import type { NestedLlmCall } from '../types';

type SamplingContent = { type: string; text?: string; data?: string; mimeType?: string };

function parts(content: unknown): SamplingContent[] {
  if (Array.isArray(content)) return content as SamplingContent[];
  return content && typeof content === 'object' ? [content as SamplingContent] : [];
}

/**
 * The model a sampling request runs on: the first of the server's `modelPreferences.hints`
 * that names a configured model — `provider/model` with a configured provider id, or a part of
 * the thread's own model id (MCP hints are matched as substrings) — else the thread's model.
 */
export function preferredModel(prefs: unknown, thread: Thread, providerIds: string[]): ModelConfig {
  const hints = (prefs as { hints?: { name?: unknown }[] } | undefined)?.hints;
  for (const h of Array.isArray(hints) ? hints : []) {
    const name = typeof h?.name === 'string' ? h.name.trim() : '';
    if (!name) continue;
    const slash = name.indexOf('/');
    if (slash > 0 && providerIds.includes(name.slice(0, slash))) {
      const { script: _script, ...rest } = thread.model;
      void _script;
      return { ...rest, provider: name.slice(0, slash), id: name.slice(slash + 1), params: { ...thread.model.params } };
    }
    if (thread.model.id && thread.model.id.toLowerCase().includes(name.toLowerCase())) return thread.model;
  }
  return thread.model;
}

/** Converts `sampling/createMessage` params into a nested LLM call (model: see preferredModel). */
export function samplingToNestedCall(params: Record<string, unknown>, thread: Thread, server: string, providerIds: string[] = []): NestedLlmCall {
  const messages: Message[] = [];
  for (const m of (Array.isArray(params.messages) ? params.messages : []) as { role?: string; content?: unknown }[]) {
    const ps = parts(m.content);
    if (m.role === 'assistant') {
      const text = ps.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join('\n');
      messages.push({ id: randomUUID(), role: 'assistant', content: [{ type: 'text', text }] });
    } else {
      const content: Extract<Message, { role: 'user' }>['content'] = ps.map((p) => {
        if (p.type === 'text') return { type: 'text' as const, text: p.text ?? '' };
        if (p.type === 'image') return { type: 'image' as const, mimeType: p.mimeType ?? 'image/png', data: p.data ?? '' };
        return { type: 'text' as const, text: `[${p.type} content${p.mimeType ? ` (${p.mimeType})` : ''} not supported by this model call]` };
      });
      messages.push({ id: randomUUID(), role: 'user', content });
    }
  }
  const call: NestedLlmCall = {
    kind: 'sampling',
    name: `sampling (${server})`,
    systemPrompt: typeof params.systemPrompt === 'string' ? params.systemPrompt : '',
    messages,
  };
  if (typeof params.maxTokens === 'number') call.maxTokens = params.maxTokens;
  const base = preferredModel(params.modelPreferences, thread, providerIds);
  if (base !== thread.model) call.model = base;
  if (typeof params.temperature === 'number') call.model = { ...base, params: { ...base.params, temperature: params.temperature } };
  return call;
}

const STOP: Record<string, string> = { stop: 'endTurn', length: 'maxTokens', tool_calls: 'toolUse' };

/**
 * Converts a finished nested call into a `CreateMessageResult`; a failed or cancelled call
 * throws (the server then gets a JSON-RPC error).
 */
export function nestedResultToSampling(r: LlmCallResult, model: string): { role: 'assistant'; content: { type: 'text'; text: string }; model: string; stopReason: string } {
  if (r.cancelled) throw new Error('the sampling call was cancelled');
  if (r.error) throw new Error(`the sampling call failed: ${r.error.message}`);
  const text = r.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('');
  return { role: 'assistant', content: { type: 'text', text }, model, stopReason: STOP[r.stopReason] ?? r.stopReason };
}
