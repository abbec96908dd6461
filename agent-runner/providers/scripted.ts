/**
 * The `scripted` provider (docs/architecture.md#providers): an offline model that streams scripted responses at a
 * set token rate. `model.script` is a list of responses `{ when?, thinking?, text?, toolCalls?,
 * error? }`; a call uses the first response not used yet whose `when` regex matches the last
 * message's text. Which responses are used is derived from the conversation itself (each
 * earlier assistant turn used one), so the provider keeps no state between runs.
 */
import type { Message, ToolCall } from '../../shared/thread/messages';
import type { ScriptedResponse } from '../../shared/thread/model-config';
import type { LlmCallResult, LlmRequest, Provider, StreamSink } from './types';
import { messageText } from './content';

/** Default streaming rate, tokens per second. */
export const DEFAULT_TOKENS_PER_SECOND = 40;

function matches(r: ScriptedResponse, text: string): boolean {
  if (!r.when) return true;
  try {
    return new RegExp(r.when, 'i').test(text);
  } catch {
    return false;
  }
}

/**
 * Index of the response this call uses, or -1. Replays the choices of earlier assistant turns
 * (each took the first unused response matching the message before it).
 */
export function pickResponse(script: ScriptedResponse[], messages: Message[]): number {
  const used = new Set<number>();
  const choose = (text: string) => script.findIndex((r, i) => !used.has(i) && matches(r, text));
  for (let i = 0; i < messages.length; i++) {
    if (messages[i].role !== 'assistant' || i === 0) continue;
    const k = choose(messageText(messages[i - 1]));
    if (k >= 0) used.add(k);
  }
  const last = messages[messages.length - 1];
  return choose(last ? messageText(last) : '');
}

/** Splits text into word-sized tokens (a word with its trailing space). */
export function tokenize(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

/** Splits a string into chunks of `size` code points (never splitting a surrogate pair). */
function chunks(text: string, size: number): string[] {
  const cps = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(''));
  return out;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

let callCounter = 0;

export function createScriptedProvider(): Provider {
  return {
    api: 'scripted',
    async stream(req: LlmRequest, sink: StreamSink): Promise<LlmCallResult> {
      const script = req.model.script ?? [];
      const rate = req.model.params.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND;
      const delay = 1000 / rate;
      const index = pickResponse(script, req.messages);
      // What a real request would carry, so the raw request shows the text sent (rendered templates included).
      sink.request({ scripted: true, responseIndex: index, messageCount: req.messages.length, tools: req.tools.map((t) => t.name), system: req.systemPrompt, messages: req.messages });
      const result: LlmCallResult = { content: [], toolCalls: [], stopReason: 'stop' };
      if (index < 0) {
        const why = script.length === 0 ? 'the scripted model has no script (model.script is empty)' : `the script is exhausted: none of its ${script.length} responses is unused and matches the last message`;
        return { ...result, stopReason: 'error', error: { message: `Scripted model: ${why}. Add a response to model.script.`, code: 'script_exhausted' } };
      }
      const r = script[index];
      const emit = async (data: Record<string, unknown>, apply: () => void) => {
        if (req.signal.aborted) return false;
        sink.event(data);
        apply();
        streamed++;
        await sleep(delay, req.signal);
        return !req.signal.aborted;
      };
      let thinking = '';
      let text = '';
      let streamed = 0;
      // Usage as a real model would report it, estimated: ~4 characters per input token, and
      // one token per streamed piece.
      const inputChars = req.systemPrompt.length + req.messages.reduce((n, m) => n + messageText(m).length, 0) + JSON.stringify(req.tools).length;
      const finish = (): LlmCallResult => {
        result.usage = { inputTokens: Math.ceil(inputChars / 4), outputTokens: streamed };
        if (thinking) result.content.push({ type: 'thinking', thinking });
        if (text) result.content.push({ type: 'text', text });
        if (req.signal.aborted) return { ...result, stopReason: 'cancelled', cancelled: true };
        return result;
      };
      for (const tok of tokenize(r.thinking ?? '')) {
        if (!(await emit({ kind: 'thinking', delta: tok }, () => { thinking += tok; sink.thinking(tok); }))) return finish();
      }
      for (const tok of tokenize(r.text ?? '')) {
        if (!(await emit({ kind: 'text', delta: tok }, () => { text += tok; sink.text(tok); }))) return finish();
      }
      const calls: ToolCall[] = [];
      for (const [i, call] of (r.toolCalls ?? []).entries()) {
        const id = `call_${Date.now().toString(36)}_${(++callCounter).toString(36)}_${i}`;
        sink.event({ kind: 'tool_start', index: i, id, name: call.name });
        sink.toolCallStart(i, { id, name: call.name });
        const raw = JSON.stringify(call.arguments ?? {});
        const tc: ToolCall = { id, name: call.name, arguments: {}, rawArguments: '' };
        calls.push(tc);
        result.toolCalls = calls;
        for (const piece of chunks(raw, 6)) {
          if (!(await emit({ kind: 'tool_args', index: i, delta: piece }, () => { tc.rawArguments += piece; sink.toolArgs(i, piece); }))) return finish();
        }
        tc.arguments = call.arguments ?? {};
        delete tc.rawArguments;
      }
      if (calls.length) result.stopReason = 'tool_calls';
      if (r.error) {
        sink.event({ kind: 'error', message: r.error });
        return { ...finish(), stopReason: 'error', error: { message: r.error, code: 'scripted_error' } };
      }
      return finish();
    },
  };
}
