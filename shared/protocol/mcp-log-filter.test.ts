import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filterLog } from './mcp-log-filter';
import type { McpLogEntry } from './contract/mcp-channel';

const e = (dir: 'in' | 'out', body: Record<string, unknown>): McpLogEntry => ({
  t: 0,
  dir,
  size: 1,
  body,
  ...(typeof body.method === 'string' ? { method: body.method } : {}),
  ...(typeof body.id === 'number' ? { id: body.id } : {}),
});

const log: McpLogEntry[] = [
  e('out', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }),
  e('in', { jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} }),
  e('out', { jsonrpc: '2.0', id: 7, error: { code: -1, message: 'declined' } }),
  e('in', { jsonrpc: '2.0', id: 1, result: { content: [] } }),
  e('in', { jsonrpc: '2.0', method: 'notifications/message', params: {} }),
];

describe('filterLog', () => {
  it('matches a response by its request\'s method (asked the other way), a prefix ending in "/", direction and errors', () => {
    expect(filterLog(log, { method: 'tools/call' }).map((x) => x.dir)).toEqual(['out', 'in']);
    expect(filterLog(log, { method: 'sampling/' })).toEqual([log[1], log[2]]);
    expect(filterLog(log, { method: 'tools/' , dir: 'in' })).toEqual([log[3]]);
    expect(filterLog(log, { errors: true })).toEqual([log[2]]);
    expect(filterLog(log, { method: 'tools' })).toEqual([]);
    expect(filterLog(log, {})).toEqual(log);
  });

  it('a truncated error body still counts as an error', () => {
    const cut: McpLogEntry = { t: 0, dir: 'in', size: 99999, id: 3, body: '{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"xxxx… [truncated]', truncated: true };
    expect(filterLog([cut], { errors: true })).toEqual([cut]);
  });

  it('property: any log and filter give a subsequence of the log that passes the direction filter, never a throw', () => {
    const entry = fc.record({
      t: fc.nat(),
      dir: fc.constantFrom('in' as const, 'out' as const),
      size: fc.nat(),
      method: fc.option(fc.constantFrom('tools/call', 'roots/list', 'x'), { nil: undefined }),
      id: fc.option(fc.oneof(fc.nat(5), fc.string({ maxLength: 2 })), { nil: undefined }),
      body: fc.oneof(fc.string(), fc.jsonValue(), fc.constant(null)),
    }).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as McpLogEntry);
    const filter = fc.record({ dir: fc.option(fc.constantFrom('in' as const, 'out' as const), { nil: undefined }), method: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }), errors: fc.option(fc.boolean(), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), filter, (entries, f) => {
        const out = filterLog(entries, f);
        let i = 0;
        for (const x of out) {
          while (i < entries.length && entries[i] !== x) i++;
          expect(i).toBeLessThan(entries.length);
          i++;
        }
        if (f.dir) expect(out.every((x) => x.dir === f.dir)).toBe(true);
      }),
    );
  });
});
