/** A thread file on the scripted (offline) model, written into a host's workspace for browser specs. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `<home>/workspace/<title>.json`: one user message, and a script that replies each of
 * `replies` in turn, streamed at `tokensPerSecond`. Returns the thread's id.
 */
export function writeScriptedThread(home: string, title: string, replies: string[], tokensPerSecond: number): string {
  const id = crypto.randomUUID();
  const thread = {
    version: 1,
    id,
    title,
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond }, script: replies.map((text) => ({ text })) },
    context: { systemPrompt: 'Answer briefly.', tools: [], messages: [{ id: crypto.randomUUID(), role: 'user', content: [{ type: 'text', text: 'Go.' }] }] },
    runRefs: [],
  };
  writeFileSync(path.join(home, 'workspace', `${title}.json`), JSON.stringify(thread, null, 2));
  return id;
}

/** `n` numbered words, `w0 w1 …`. */
export function numberedWords(n: number): string {
  return Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
}
