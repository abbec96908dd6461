/**
 * Which binary data in a thread is valid base64 (docs/architecture.md#the-thread-document). Valid
 * means RFC 4648 §4, the standard alphabet with padding: only `A–Z a–z 0–9 + /`, in groups of
 * four characters, the last group padded with `=` to four (`xx==`, `xxx=`), no padding anywhere
 * else, no line breaks or spaces (§3.1, §3.3), and the unused bits of the last character zero
 * (§3.5: `QQ==` is "A", `QR==` is refused). That is exactly the text Node's decoder gives back
 * when it re-encodes what it decoded. The empty string is valid (no bytes). Thread parts hold
 * base64 without a `data:` prefix (an image by URL is `url`, http or https only), so a `data:`
 * URL where base64 is expected is refused as well, with a hint.
 */
import type { Thread } from './schema';
import type { ThreadProblem } from './validate';

const ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
// (`=` only in the last group: the length is a multiple of 4 and padding ends the text.)

/** True when `text` is base64 by RFC 4648 §4 as described in the module comment. */
export function isBase64(text: string): boolean {
  if (text.length % 4 !== 0 || !ALPHABET.test(text)) return false;
  if (text.length === 0) return true;
  // The unused bits of the last data character must be zero: 4 of them before `==`, 2 before `=`.
  const pads = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (pads === 0) return true;
  const last = DIGITS.indexOf(text[text.length - pads - 1]);
  return last % (pads === 2 ? 16 : 4) === 0;
}

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Why `text` is not base64 (undefined when it is), naming the first offending character and where. */
export function base64Problem(text: string): string | undefined {
  if (isBase64(text)) return undefined;
  if (/^data:/i.test(text)) return 'is a data: URL, not base64: keep only what follows "base64," (the media type goes in mimeType)';
  const bad = /[^A-Za-z0-9+/=]/.exec(text);
  if (bad) return `is not valid base64 (RFC 4648 §4): ${JSON.stringify(bad[0])} at character ${bad.index + 1} is not in the alphabet A–Z a–z 0–9 + /`;
  const pad = text.indexOf('=');
  if (pad !== -1 && !/^=+$/.test(text.slice(pad))) return `is not valid base64 (RFC 4648 §4): "=" at character ${pad + 1} is padding inside the data`;
  if (text.length % 4 !== 0) return `is not valid base64 (RFC 4648 §4): ${text.length} characters, not a multiple of 4 (padding missing?)`;
  return 'is not valid base64 (RFC 4648 §4): the last character has bits set past the end of the data';
}

/** Verdicts by part object (a WeakMap fits): a problem, null for valid data, undefined for not known yet. */
export interface VerdictCache {
  get(part: object, text: string): string | null | undefined;
  set(part: object, verdict: string | null): void;
}

/** One part of a message or tool result, as far as its binary data goes. */
type DataPart = { type: string; data?: unknown; source?: { type: string; data?: unknown }; resource?: { blob?: unknown } };

/** The field of `part` holding base64, and its pointer suffix; undefined when it holds none. */
function dataField(part: DataPart): [string, string] | undefined {
  if ((part.type === 'image' || part.type === 'audio') && typeof part.data === 'string') return [part.data, '/data'];
  if (part.type === 'document' && part.source?.type === 'base64' && typeof part.source.data === 'string') return [part.source.data, '/source/data'];
  if (part.type === 'resource' && typeof part.resource?.blob === 'string') return [part.resource.blob, '/resource/blob'];
  return undefined;
}

/**
 * Every image, audio, PDF document and resource blob of `thread` whose data is not base64: one
 * problem each, at its JSON pointer (`/context/messages/3/content/1/data`), at most `max`.
 * `cache` keeps each part's verdict by the part object (a window re-checks only the parts an
 * edit replaced: Immer keeps the others); its `get` is given the part's base64 text too, and
 * may answer for a part not checked yet (the renderer's deferred check of large data).
 */
export function dataProblems(thread: Pick<Thread, 'context'>, max = 50, cache?: VerdictCache): ThreadProblem[] {
  const out: ThreadProblem[] = [];
  const check = (parts: readonly DataPart[], at: string) => {
    parts.forEach((part, j) => {
      const field = dataField(part);
      if (!field) return;
      let problem = cache?.get(part, field[0]);
      if (problem === undefined) {
        problem = base64Problem(field[0]) ?? null;
        cache?.set(part, problem);
      }
      if (problem && out.length < max) out.push({ pointer: `${at}/${j}${field[1]}`, message: problem });
    });
  };
  thread.context.messages.forEach((m, i) => {
    check(m.content as DataPart[], `/context/messages/${i}/content`);
    if (m.role === 'assistant') m.toolCalls?.forEach((c, k) => c.output && check(c.output.content as DataPart[], `/context/messages/${i}/toolCalls/${k}/output/content`));
  });
  return out;
}
