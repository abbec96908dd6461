/** Builders for small valid threads used across tests. */
import type { Thread } from '../../shared/thread/schema';
import type { ScriptedResponse } from '../../shared/thread/model-config';
import type { Tool } from '../../shared/thread/tools';
import type { Message } from '../../shared/thread/messages';

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

/** The `everything` MCP server's echo tool, as the example threads define it. */
export const echoTool: Tool = {
  type: 'mcp',
  name: 'echo',
  description: 'Echoes back the input string',
  server: 'everything',
  toolName: 'echo',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  annotations: { readOnlyHint: true, destructiveHint: false },
};

/**
 * A ReAct thread (Auto-run tools, max turns = `turns`) whose scripted model calls `tool` with
 * `call(i)` on each of turns 1 to `turns - 1`, then answers "All done after <turns> turns.".
 */
export function reactThread(turns: number, tool: Tool, call: (turn: number) => Record<string, unknown>, opts: { tokensPerSecond: number; title?: string }): Thread {
  const script: ScriptedResponse[] = Array.from({ length: turns }, (_, i) =>
    i < turns - 1 ? { text: `Turn ${i + 1}: checking.`, toolCalls: [{ name: tool.name, arguments: call(i + 1) }] } : { text: `All done after ${turns} turns.` },
  );
  const thread = scriptedThread(script, { tokensPerSecond: opts.tokensPerSecond, tools: [tool], title: opts.title ?? `ReAct ${turns}` });
  thread.settings = { autoRunTools: true, maxTurns: turns };
  return thread;
}
