import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseFrame } from './ws-requests';

describe('reading a WebSocket frame as a request', () => {
  it('JSON that is not a request, and ids JSON cannot send back, are refused as bad_request', () => {
    for (const text of ['null', '42', '"x"', '[]', 'true', '{not json', '', '{"id":1e400,"method":"workspace.list"}', '{"id":"1","method":"m"}']) {
      expect(parseFrame(text), text).toMatchObject({ ok: false, answer: { id: null, error: { code: 'bad_request' } } });
    }
    expect(parseFrame('{"id":3}')).toMatchObject({ ok: false, answer: { id: 3 } });
    expect(parseFrame('{"id":3,"method":"workspace.list"}')).toEqual({ ok: true, id: 3, method: 'workspace.list', params: {} });
  });

  it('never throws, and whatever it answers survives a JSON round trip with its id', () => {
    const frames = fc.oneof(fc.string({ unit: 'binary' }), fc.jsonValue().map((v) => JSON.stringify(v)), fc.record({ id: fc.oneof(fc.double(), fc.string(), fc.constant(null)), method: fc.oneof(fc.string(), fc.nat()) }, { requiredKeys: [] }).map((r) => JSON.stringify(r)));
    fc.assert(
      fc.property(frames, (text) => {
        const r = parseFrame(text);
        const id = r.ok ? r.id : r.answer.id;
        expect(JSON.parse(JSON.stringify({ id })).id).toBe(id === null ? null : id === 0 ? 0 : id);
        if (r.ok) expect(typeof r.method).toBe('string');
      }),
    );
  });
});
