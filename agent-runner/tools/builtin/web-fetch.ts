/**
 * The `web_fetch` built-in tool: GET an http(s) URL with a size cap and a timeout. HTML becomes
 * markdown through `turndown` when that package is installed; otherwise the HTML is returned
 * as it came, saying so.
 */
import type { ToolOutput } from '../../../shared/thread/messages';
import { toolErrorOutput, toolOutput } from '../../../shared/thread/tool-output';
import type { WebPage } from '../../../shared/tools/builtin-results';

/** Most bytes of a body read, and ms before giving up. */
export const MAX_FETCH_BYTES = 1024 * 1024;
export const FETCH_TIMEOUT_MS = 30_000;

async function readCapped(res: Response): Promise<{ text: string; cut: boolean }> {
  const reader = res.body?.getReader();
  if (!reader) return { text: '', cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = MAX_FETCH_BYTES - size;
    chunks.push(value.subarray(0, room));
    size += Math.min(value.length, room);
    if (value.length > room) {
      cut = true;
      await reader.cancel();
      break;
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut };
}

/** HTML as markdown when `turndown` can be loaded, else undefined. */
async function toMarkdown(html: string): Promise<string | undefined> {
  const name = 'turndown';
  try {
    const mod = (await import(name)) as { default: new (o: Record<string, unknown>) => { turndown(html: string): string } };
    return new mod.default({ headingStyle: 'atx', codeBlockStyle: 'fenced' }).turndown(html);
  } catch {
    return undefined;
  }
}

/** The `web_fetch` call: `{url}`. */
export async function webFetchTool(a: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutput> {
  const given = typeof a.url === 'string' ? a.url : '';
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return toolErrorOutput(`web_fetch: "${given.slice(0, 200)}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return toolErrorOutput(`web_fetch: only http and https URLs are fetched, not ${url.protocol}`);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]), redirect: 'follow' });
  } catch (err) {
    return toolErrorOutput(`web_fetch ${url.href}: ${(err as Error).name === 'TimeoutError' ? `no answer within ${FETCH_TIMEOUT_MS} ms` : (err as Error).message}`);
  }
  const type = res.headers.get('content-type') ?? '';
  const { text, cut } = await readCapped(res);
  const html = /html/i.test(type);
  const markdown = html ? await toMarkdown(text) : undefined;
  const body = markdown ?? text;
  const notes = [cut && `(cut at ${MAX_FETCH_BYTES} bytes)`, html && markdown === undefined && '(HTML as received: no HTML-to-markdown converter is installed)'].filter(Boolean).join(' ');
  const out = toolOutput(`HTTP ${res.status} ${url.href}\n\n${body}${notes ? `\n\n${notes}` : ''}`, !res.ok);
  return { ...out, structuredContent: { kind: 'web_page', url: url.href, status: res.status, contentType: type, markdown: markdown !== undefined, truncated: cut } satisfies WebPage };
}
