import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compactPrinted, compactRequest, printRequest, requestAt, RequestReader, sameJson, type RequestBase, type StoredRequest } from './request-delta';

/** Stores `requests` the way a run does: each against the one before it. */
function store(requests: unknown[]): StoredRequest[] {
  const out: StoredRequest[] = [];
  requests.forEach((request, i) => {
    const c = i ? compactRequest(request, requests[i - 1], `n${i - 1}`) : { request };
    out.push({ nodeId: `n${i}`, ...c });
  });
  return out;
}

const chatTurns = (n: number) => {
  const messages: unknown[] = [{ role: 'system', content: 'Be brief.' }];
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    messages.push({ role: 'user', content: `question ${i}` });
    out.push(JSON.parse(JSON.stringify({ model: 'gpt-x', stream: true, messages, tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] })));
    messages.push({ role: 'assistant', content: `answer ${i}` });
  }
  return out;
};

describe('stored requests', () => {
  it('keeps only what each request of an agent loop adds, and gives every request back as sent', () => {
    const requests = chatTurns(200);
    const stored = store(requests);
    // The 200th request carries 400 messages; stored, it carries the two new ones.
    const last = stored[199];
    expect(last.requestBase).toEqual({ nodeId: 'n198', keys: ['model', 'stream', 'messages', 'tools'], same: ['tools'], prefix: { messages: 398 } });
    expect(last.request).toEqual({ model: 'gpt-x', stream: true, messages: [{ role: 'assistant', content: 'answer 198' }, { role: 'user', content: 'question 199' }] });
    const wholeBytes = JSON.stringify(requests).length;
    const storedBytes = JSON.stringify(stored).length;
    expect(storedBytes * 20).toBeLessThan(wholeBytes);
    const reader = new RequestReader(stored);
    for (let i = 0; i < requests.length; i++) expect(JSON.stringify(reader.at(i))).toBe(JSON.stringify(requests[i]));
    // Random access (no reader memory) gives the same.
    expect(requestAt(stored, 150)).toEqual({ ok: true, request: requests[150] });
  });

  it('stores a request whole when nothing but primitives is shared, or either is not an object', () => {
    expect(compactRequest({ model: 'a', messages: [1] }, { model: 'a', messages: [2] }, 'p')).toEqual({ request: { model: 'a', messages: [1] } });
    expect(compactRequest([1, 2], [1, 2], 'p')).toEqual({ request: [1, 2] });
    expect(compactRequest({ a: [1] }, null, 'p')).toEqual({ request: { a: [1] } });
    expect(compactRequest({ omitted: 'x' }, { messages: [1] }, 'p')).toEqual({ request: { omitted: 'x' } });
  });

  it('keeps key order and a key named __proto__ as an own property', () => {
    const prev = JSON.parse('{"__proto__":{"x":1},"messages":[1,2],"b":[0]}');
    const cur = JSON.parse('{"b":[0],"messages":[1,2,3],"__proto__":{"x":1}}');
    const stored = store([prev, cur]);
    expect((stored[1].requestBase as RequestBase).same).toEqual(['b', '__proto__']);
    const back = requestAt(stored, 1);
    expect(back.ok && JSON.stringify(back.request)).toBe(JSON.stringify(cur));
    expect(back.ok && Object.getPrototypeOf(back.request)).toBe(Object.prototype);
  });

  it('says which record is missing when a base cannot be found, and never throws on a malformed base', () => {
    const stored = store(chatTurns(3));
    const orphan = [stored[0], stored[2]]; // the record of n1 was lost
    expect(requestAt(orphan, 1)).toEqual({ ok: false, error: 'the request of node n2 extends the request of node n1, which has no earlier record in this run' });
    expect(new RequestReader(orphan).at(1)).toEqual({ omitted: 'Not kept: the request of node n2 extends the request of node n1, which has no earlier record in this run.' });
    const bad = [stored[0], { ...stored[1], requestBase: { nodeId: 'n0', keys: 'messages' } as never }];
    expect(requestAt(bad, 1)).toEqual({ ok: false, error: 'the record of node n1 has a malformed requestBase' });
    expect(requestAt(stored, 7)).toEqual({ ok: false, error: 'no record at index 7' });
  });

  it('refuses a damaged record rather than give a wrong request, and every record after it too', () => {
    const stored = JSON.parse(JSON.stringify(store(chatTurns(4)))) as StoredRequest[];
    const damaged = (f: (rb: RequestBase, rec: StoredRequest) => void) => {
      const copy = JSON.parse(JSON.stringify(stored)) as StoredRequest[];
      f(copy[2].requestBase as RequestBase, copy[2]);
      return [requestAt(copy, 2), requestAt(copy, 3), requestAt(copy, 1)];
    };
    const refused = (why: string) => ({ ok: false, error: `the record of node n2 does not fit the request it extends (${why})` });
    // "messages" said to be unchanged while the record holds its own.
    const [a, aNext, aBefore] = damaged((rb) => rb.same.push('messages'));
    expect(a).toEqual(refused('"messages" is both kept and unchanged'));
    expect(aNext).toEqual(a);
    expect(aBefore).toEqual({ ok: true, request: chatTurns(4)[1] });
    expect(damaged((rb) => (rb.prefix.messages = 99))[0]).toEqual(refused('the earlier "messages" has fewer than 99 items'));
    expect(damaged((rb) => (rb.keys = rb.keys.filter((k) => k !== 'model')))[0]).toEqual(refused('"model" is not one of its keys'));
    expect(damaged((rb) => rb.keys.push('temperature'))[0]).toEqual(refused('"temperature" is missing'));
    expect(damaged((rb) => rb.same.push('nope'))[0]).toEqual(refused('"nope" is not one of its keys'));
    expect(damaged((_, rec) => (rec.request = [1]))[0]).toEqual(refused('its request is not an object'));
    expect(damaged((_, rec) => ((rec.request as { messages: unknown }).messages = 'x'))[0]).toEqual(refused('its "messages" is not a list'));
  });

  it('finds the base by node id when records of other nodes come between', () => {
    const [a, b] = chatTurns(2);
    const c = compactRequest(b, a, 'first');
    const records: StoredRequest[] = [{ nodeId: 'first', request: a }, { nodeId: 'judge', request: { messages: ['other'] } }, { nodeId: 'second', ...c }];
    expect(requestAt(records, 2)).toEqual({ ok: true, request: b });
  });

  it('gives back any sequence of JSON requests exactly (property)', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    // Requests that grow like a conversation: a shared array extended, other keys changed at random.
    const step = fc.record({ add: fc.array(value, { maxLength: 3 }), cut: fc.nat(4), extra: fc.dictionary(fc.constantFrom('model', 'tools', '__proto__', 'x', 'messages'), value, { maxKeys: 3 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), fc.boolean(), (steps, random) => {
        let messages: unknown[] = [];
        const requests = steps.map((s) => {
          messages = messages.slice(0, Math.max(0, messages.length - (s.cut === 0 ? 1 : 0))).concat(s.add);
          return JSON.parse(JSON.stringify({ ...s.extra, messages, system: s.cut > 2 ? ['sys'] : 'sys' }));
        });
        const stored = JSON.parse(JSON.stringify(store(requests))) as StoredRequest[]; // as read from a run file
        const reader = new RequestReader(stored);
        for (let i = 0; i < requests.length; i++) {
          const got = random ? requestAt(stored, i) : { ok: true, request: reader.at(i) };
          expect(got.ok && JSON.stringify(got.request)).toBe(JSON.stringify(requests[i]));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('compares two requests by their JSON text as by their objects (property)', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const request = fc.oneof(fc.dictionary(fc.constantFrom('model', 'tools', '__proto__', 'x', 'messages'), fc.oneof(value, fc.array(value, { maxLength: 4 })), { maxKeys: 4 }), value);
    fc.assert(
      fc.property(request, request, fc.array(value, { maxLength: 3 }), (a, b, more) => {
        // Often the second extends the first's arrays, as a conversation does.
        const prev = JSON.parse(JSON.stringify(a ?? null));
        const cur = JSON.parse(JSON.stringify(typeof a === 'object' && a && !Array.isArray(a) ? Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Array.isArray(v) ? [...v, ...more] : v])) : b ?? null));
        expect(compactPrinted(cur, printRequest(cur), printRequest(prev), 'p')).toEqual(compactRequest(cur, prev, 'p'));
        const other = JSON.parse(JSON.stringify(b ?? null));
        expect(compactPrinted(other, printRequest(other), printRequest(prev), 'p')).toEqual(compactRequest(other, prev, 'p'));
      }),
      { numRuns: 500 },
    );
  });

  it('compares JSON with key order', () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { a: 1, b: [1, { c: null }] })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
