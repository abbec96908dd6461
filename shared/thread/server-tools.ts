/**
 * One line for a block of provider-run tool activity (a `server_tool` part: Anthropic server
 * tools and the MCP connector), as the execution tree and the message show it. Block shapes:
 * @anthropic-ai/sdk `ServerToolUseBlock`, `*ToolResultBlock`, `BetaMCPToolUseBlock`, `BetaMCPToolResultBlock`.
 */

/** How long a summary may be before it is cut with "…". */
const MAX = 200;

function json(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(v);
  }
}

/** The text parts of a result's content (MCP results, text documents), joined. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((p): p is { text: string } => !!p && typeof (p as { text?: unknown }).text === 'string').map((p) => p.text);
  return texts.length ? texts.join(' ') : undefined;
}

/** What a result block says: its error code, its text, or how many items it holds. */
function resultSummary(block: Record<string, unknown>): string {
  const c = block.content as Record<string, unknown> | unknown[] | string | undefined;
  const err = !Array.isArray(c) && c && typeof c === 'object' ? c.error_code : undefined;
  if (typeof err === 'string') return `error ${err}`;
  if (block.is_error === true) return `error: ${contentText(c) ?? ''}`.trim();
  const text = contentText(c);
  if (text !== undefined) return text;
  if (Array.isArray(c)) return `${c.length} item${c.length === 1 ? '' : 's'}`;
  if (c && typeof c === 'object') {
    const o = c as Record<string, unknown>;
    if (typeof o.stdout === 'string' || typeof o.return_code === 'number') return `exit ${String(o.return_code ?? '?')}${o.stdout ? `: ${String(o.stdout).trim()}` : ''}`;
    if (typeof o.url === 'string') return String(o.url);
  }
  return '';
}

/**
 * A short line for one provider-run tool block: `web_search {"query":"…"}` for a call (with
 * `@server` for an MCP connector call), `web_search_tool_result → 3 items` for a result.
 * Never throws, whatever the block holds.
 */
export function serverToolLine(block: { type: string } & Record<string, unknown>): string {
  const cut = (s: string) => (s.length > MAX ? `${s.slice(0, MAX)}…` : s);
  if (block.type.endsWith('_tool_use')) {
    const server = typeof block.server_name === 'string' ? ` @${block.server_name}` : '';
    const input = block.input === undefined ? '' : ` ${json(block.input)}`;
    return cut(`${typeof block.name === 'string' ? block.name : block.type}${server}${input}`);
  }
  const summary = resultSummary(block);
  return cut(`${block.type}${summary ? ` → ${summary.replace(/\s+/g, ' ')}` : ''}`);
}
