/**
 * Find in a thread's messages: the text of every field a message card shows (its text, its
 * thinking, each tool call's arguments as the editor shows them, each result's text), and the
 * places a query occurs in them, case-insensitively. The list is virtualised, so the browser's
 * own find cannot see messages that are not mounted; this is the find the playground offers
 * (FindBar.tsx), and the offsets are those of the text the fields show, for highlighting.
 */
import type { Message } from '../../../../shared/thread/messages';
import { toJson } from '../../ui/format';
import { occurrences } from '../../ui/find-highlight';

/** Which field of a message: `text`, `thinking`, `args:<toolCallId>`, `result:<toolCallId>`. */
export type FieldKey = 'text' | 'thinking' | `args:${string}` | `result:${string}`;

/** One occurrence of the query: message `index` (and its id), field, and `[from, to)` in UTF-16 units. */
export interface FindMatch {
  index: number;
  messageId: string;
  field: FieldKey;
  from: number;
  to: number;
}

/** The texts a message card shows, in the order it shows them. */
export function messageFields(m: Message): { field: FieldKey; text: string }[] {
  const out: { field: FieldKey; text: string }[] = [];
  const textPart = m.content.find((p) => p.type === 'text') as { text: string } | undefined;
  if (m.role === 'assistant') {
    const thinking = m.content.filter((p) => p.type === 'thinking').map((p) => (p as { thinking: string }).thinking).join('\n');
    if (thinking) out.push({ field: 'thinking', text: thinking });
  }
  if (textPart) out.push({ field: 'text', text: textPart.text });
  if (m.role === 'assistant') {
    for (const c of m.toolCalls ?? []) {
      out.push({ field: `args:${c.id}`, text: toJson(c.arguments) });
      const result = c.output?.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('\n');
      if (result) out.push({ field: `result:${c.id}`, text: result });
    }
  }
  return out;
}

/**
 * Every occurrence of `query` in `messages`, in reading order (message, then field, then
 * offset). At most `limit` (default 10,000) are returned, so a one-letter query over a long
 * thread stays cheap; `truncated` says when there were more.
 */
export function findInMessages(messages: readonly Message[], query: string, limit = 10_000): { matches: FindMatch[]; truncated: boolean } {
  const matches: FindMatch[] = [];
  if (!query) return { matches, truncated: false };
  for (let index = 0; index < messages.length; index++) {
    const m = messages[index];
    for (const { field, text } of messageFields(m)) {
      for (const [from, to] of occurrences(text, query)) {
        if (matches.length >= limit) return { matches, truncated: true };
        matches.push({ index, messageId: m.id, field, from, to });
      }
    }
  }
  return { matches, truncated: false };
}
