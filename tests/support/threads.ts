/** Builders for small valid threads used across tests. */
import type { Thread, ScriptedResponse, Tool, Message } from '../../shared/thread/schema';

export function userMessage(text: string, id: string = crypto.randomUUID()): Message {
  return { id, role: 'user', content: [{ type: 'text', text }] };
}

/**
 * A thread (format version 1, no runs) with `context` — by default an empty system prompt, no
 * tools, no messages — and `fields`: by default a random id, the title "test thread" and the
 * scripted model without a script.
 */
export function threadWith(context: Partial<Thread['context']>, fields: Partial<Pick<Thread, 'id' | 'title' | 'model'>> = {}): Thread {
  return {
    version: 1,
    id: fields.id ?? crypto.randomUUID(),
    title: fields.title ?? 'test thread',
    model: fields.model ?? { provider: 'scripted', id: 'scripted', params: {} },
    context: { systemPrompt: context.systemPrompt ?? '', tools: context.tools ?? [], messages: context.messages ?? [] },
    runRefs: [],
  };
}

/** A thread on the scripted model with one user message. */
export function scriptedThread(script: ScriptedResponse[], opts: { tokensPerSecond?: number; tools?: Tool[]; messages?: Message[]; title?: string } = {}): Thread {
  return threadWith(
    { systemPrompt: 'You are a test.', tools: opts.tools, messages: opts.messages ?? [userMessage('hello')] },
    { title: opts.title, model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: opts.tokensPerSecond ?? 2000 }, script } },
  );
}

export const sumTool: Tool = {
  type: 'function',
  name: 'get_sum',
  description: 'Adds two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};
