/** Builders for small valid threads used across tests. */
import type { Thread, ScriptedResponse, Tool, Message } from '../../shared/thread/schema';

export function userMessage(text: string, id: string = crypto.randomUUID()): Message {
  return { id, role: 'user', content: [{ type: 'text', text }] };
}

/** A thread on the scripted model with one user message. */
export function scriptedThread(script: ScriptedResponse[], opts: { tokensPerSecond?: number; tools?: Tool[]; messages?: Message[]; title?: string } = {}): Thread {
  return {
    version: 1,
    id: crypto.randomUUID(),
    title: opts.title ?? 'test thread',
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: opts.tokensPerSecond ?? 2000 }, script },
    context: { systemPrompt: 'You are a test.', tools: opts.tools ?? [], messages: opts.messages ?? [userMessage('hello')] },
    runRefs: [],
  };
}

export const sumTool: Tool = {
  type: 'function',
  name: 'get_sum',
  description: 'Adds two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};
