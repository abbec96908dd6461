/**
 * What the multi-window benchmark drives: one thread open in several windows and the host,
 * behind either today's edit path or a Yjs model. One field is typed into: the first text part
 * of the message with id `field` (docs/architecture.md#multi-window-editing).
 */
import type { Message } from '../../shared/thread/messages';
import type { Thread } from '../../shared/thread/schema';
import type { Net } from './net';
import { benchThread, rng } from '../lib';

/** One thread open in `windows` windows and the host, over a {@link Net}. */
export interface Model {
  readonly name: string;
  readonly net: Net;
  readonly windows: number;
  /** Window `w`'s text of the field; undefined when the field's message is gone in that window. */
  text(w: number): string | undefined;
  /** The text of message `id` as window `w` shows it, or undefined when that message is gone there. */
  textOf(w: number, id: string): string | undefined;
  /** The host's text of message `id`. */
  hostTextOf(id: string): string | undefined;
  /** Window `w`'s thread and the host's, as canonical JSON (sorted keys), to check convergence. */
  threadJson(w: number): string;
  hostThreadJson(): string;
  /** One keystroke in window `w` into message `id`: `remove` characters at `at` replaced by `insert`. False when the message is gone there. */
  type(w: number, id: string, at: number, remove: number, insert: string): boolean;
  /** Window `w` deletes message `id` (its delete button). False when it is gone there. */
  deleteMessage(w: number, id: string): boolean;
  /** Window `w`'s undo; false when there was nothing to undo or the undo was refused. */
  undo(w: number): boolean;
  /** No edit of any window is waiting for the host. */
  settled(): boolean;
  /** Errors the windows show (today's path reports a refused undo or a reload). */
  errors(): string[];
  /** Host work due at virtual time `now` (the Yjs host turns its document into JSON to save). */
  tick?(now: number): void;
  /** Release timers. */
  close(): Promise<void>;
}

/** JSON with object keys sorted, so two equal documents print the same whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** The first text part of `m`'s content, or undefined. */
export function firstText(m: Message | undefined): string | undefined {
  const p = m?.content.find((x) => x.type === 'text');
  return p && p.type === 'text' ? p.text : undefined;
}

/** The first text of message `id` of `t`, or undefined when the thread has no such message. */
export function textOfMessage(t: Thread, id: string): string | undefined {
  return firstText(t.context.messages.find((m) => m.id === id));
}

const WORDS = 'the agent reads the file then calls a tool with the path and waits for its result before it answers'.split(' ');

/**
 * A thread of `count` messages (user and assistant in turn, texts of 30–480 words, every
 * assistant message with one tool call whose arguments are JSON), plus the field: message
 * `field` at the middle, holding `fieldText`.
 */
export function bigThread(count: number, fieldText: string, field = 'field'): Thread {
  const r = rng(1);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    if (i === Math.floor(count / 2)) {
      messages.push({ id: field, role: 'user', content: [{ type: 'text', text: fieldText }] });
      continue;
    }
    if (i % 2 === 0) messages.push({ id: `u${i}`, role: 'user', content: [{ type: 'text', text: words(30 + Math.floor(r() * 450)) }] });
    else
      messages.push({
        id: `a${i}`,
        role: 'assistant',
        content: [{ type: 'text', text: words(30 + Math.floor(r() * 450)) }],
        toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: { path: `/tmp/file-${i}.txt`, query: words(4), limit: i }, output: { content: [{ type: 'text', text: 'ok' }], isError: false } }],
        usage: { inputTokens: 100 + i, outputTokens: 20 },
      });
  }
  return benchThread('00000000-0000-4000-8000-00000000b001', 'multi-window bench', {
    systemPrompt: words(200),
    tools: [{ type: 'function', name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
    messages,
  });
}

/** Filler text of `n` characters for the field. */
export function filler(n: number): string {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `${WORDS[i % WORDS.length]} `;
  return s.slice(0, n);
}
