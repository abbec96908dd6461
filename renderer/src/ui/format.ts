/** Small formatting helpers for rows and the detail panel. */

import { formatDuration } from '../../../shared/protocol/duration';

/** `1234` ms → "1.23 s"; under a second in ms (the CLI prints durations the same way). */
export const formatMs: (ms: number | undefined) => string = formatDuration;

/** Byte count, human readable. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Cut a long value for a row: keeps the end while streaming (newest text), the start otherwise. */
export function truncate(text: string, max = 600, keepEnd = false): string {
  if (text.length <= max) return text;
  return keepEnd ? `…${text.slice(text.length - max)}` : `${text.slice(0, max)}…`;
}

/** JSON text of a value, pretty; never throws. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'undefined';
  } catch (err) {
    return `/* not serialisable: ${(err as Error).message} */`;
  }
}

/** Thinking folded: its latest line while streaming, its first line when done (docs/architecture.md#interface-conventions). */
export function foldedThinking(thinking: string, streaming: boolean): string {
  const lines = thinking.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return '';
  return streaming ? lines[lines.length - 1] : lines[0];
}

/** Is this the Mac keyboard (Cmd) or another (Ctrl)? */
export const modKey = (): string => (typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl');
