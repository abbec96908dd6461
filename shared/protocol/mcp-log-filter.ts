/**
 * Filtering an MCP server's protocol log (the mcp-host answers `serverLog` with it; the
 * Servers view applies it to the entries pushed live).
 */
import type { McpLogEntry, McpLogFilter } from './contract/mcp-channel';

type Key = string | number;

/**
 * The entries of `log` that pass `filter`: direction, method (exact, or a prefix ending in
 * `/`; a response is matched by its request's method, found earlier in the log) and errors
 * (JSON-RPC responses with `error`). Order is kept.
 */
export function filterLog(log: readonly McpLogEntry[], filter: McpLogFilter): McpLogEntry[] {
  // Request ids by the direction of the request: a response goes the other way.
  const asked = { in: new Map<Key, string>(), out: new Map<Key, string>() };
  const out: McpLogEntry[] = [];
  for (const e of log) {
    let method = e.method;
    if (e.id !== undefined && method !== undefined) asked[e.dir].set(e.id, method);
    else if (e.id !== undefined) method = asked[e.dir === 'in' ? 'out' : 'in'].get(e.id);
    if (filter.dir && e.dir !== filter.dir) continue;
    if (filter.method && !(method === filter.method || (filter.method.endsWith('/') && method?.startsWith(filter.method)))) continue;
    if (filter.errors && !isErrorResponse(e)) continue;
    out.push(e);
  }
  return out;
}

function isErrorResponse(e: McpLogEntry): boolean {
  if (e.method !== undefined) return false;
  if (typeof e.body === 'string') return /^\{[^]*"error":\{/.test(e.body) && !e.body.includes('"result":');
  return !!e.body && typeof e.body === 'object' && 'error' in e.body;
}
