/**
 * A message card's height before it is measured (MessageList.tsx's estimate): the better the
 * guess, the less the scrollbar and a jump far down the list move when rows are measured.
 * Figures are the card's parts as MessageCard.tsx lays them out, in px at the default theme.
 */
import type { Message } from '../../../../shared/thread/messages';

/** Characters of 13 px monospace on one line of a prompt editor in a typical playground column. */
const CHARS_PER_LINE = 80;

const lineCount = (text: string, wrapAt: number) => text.split('\n').reduce((n, l) => n + Math.max(1, Math.ceil(l.length / wrapAt)), 0);

/** A prompt editor's box: 8 px padding, 18.2 px lines, 40 px min, 420 px max, 2 px border. */
function promptHeight(text: string): number {
  return Math.min(420, Math.max(40, 8 + 18.2 * lineCount(text, CHARS_PER_LINE))) + 2;
}

/** A JSON editor's box (12 px font, no wrap): between `min` and `max`. */
function jsonHeight(lines: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, 8 + 16.8 * lines)) + 2;
}

/** Estimates by message object: a document version shares the messages it did not change. */
const cache = new WeakMap<Message, number>();

/** Estimated height of `m`'s card, px (computed once per message object). */
export function estimateMessageHeight(m: Message | undefined): number {
  if (!m) return 120;
  let h = cache.get(m);
  if (h === undefined) {
    h = estimate(m);
    cache.set(m, h);
  }
  return h;
}

function estimate(m: Message): number {
  let h = 22 + 34; // padding and border, header row
  const text = m.content.find((p) => p.type === 'text') as { text: string } | undefined;
  if (m.role === 'user' || text || !m.toolCalls?.length) h += promptHeight(text?.text ?? '') + 6;
  if (m.role === 'user') {
    h += m.content.filter((p) => p.type === 'image').length * 226;
    h += 28; // Add image
    return h;
  }
  if (m.content.some((p) => p.type === 'thinking')) h += 24;
  if (m.errorMessage) h += 26;
  for (const c of m.toolCalls ?? []) {
    const args = JSON.stringify(c.arguments, null, 2) ?? '';
    const result = c.output?.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n') ?? '';
    h += 14 + 28 + jsonHeight(args.split('\n').length, 60, 220) + 4 + 22 + promptHeight(result) + (c.output ? 26 : 0) + 6;
  }
  h += 36; // Add tool call
  return Math.round(h);
}
