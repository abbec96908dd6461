/**
 * record-chain.ts: the records a run posts carry only what each request adds, and the host, which
 * keeps them as they come (main/core/bridge/live-run.ts), gets every request back as sent; a
 * record over the bound is posted as a stand-in saying so, and the records after it still read.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LlmRecord } from '../../shared/protocol/runner';
import { RequestReader, type RequestBase } from '../../shared/protocol/request-delta';
import { RecordChain } from './record-chain';

const record = (i: number, request: unknown): LlmRecord => ({ v: 1, type: 'llm_record', runId: 'r', nodeId: `n${i}`, api: 'openai-chat', request, events: [{ t: 1, data: { i } }] });

/** The requests of a ReAct loop of `turns` turns: each carries the whole conversation so far. */
function loop(turns: number): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'start' }];
  const out: unknown[] = [];
  for (let i = 0; i < turns; i++) {
    out.push(JSON.parse(JSON.stringify({ model: 'm', messages, tools: [{ name: 'echo' }] })));
    messages.push({ role: 'assistant', tool_calls: [{ id: `c${i}`, name: 'echo' }] }, { role: 'tool', tool_call_id: `c${i}`, content: `turn ${i}` });
  }
  return out;
}

describe('RecordChain', () => {
  it('posts each turn of a 1,000-turn loop at the size of one turn, and every request reads back as sent', () => {
    const requests = loop(1000);
    const chain = new RecordChain();
    const posted = requests.map((r, i) => chain.next(record(i, r)));
    expect(posted[999].requestBase).toEqual({ nodeId: 'n998', keys: ['model', 'messages', 'tools'], same: ['tools'], prefix: { messages: 1997 } });
    const sizes = posted.map((p) => JSON.stringify(p).length);
    expect(Math.max(...sizes.slice(1))).toBeLessThan(400);
    expect(JSON.stringify(requests[999]).length).toBeGreaterThan(100_000);
    const reader = new RequestReader(posted);
    for (let i = 0; i < requests.length; i++) expect(JSON.stringify(reader.at(i))).toBe(JSON.stringify(requests[i]));
    expect(posted[999].events).toEqual([{ t: 1, data: { i: 999 } }]);
  });

  it('compares with the last request as it was when posted, not as its objects are now', () => {
    // The scripted model's request holds the loop's own messages, and the loop fills in a tool
    // call's result after the call: the next request must carry the message with its result.
    const messages: { role: string; toolCalls?: { id: string; output?: string }[] }[] = [{ role: 'user' }, { role: 'assistant', toolCalls: [{ id: 'c1' }] }];
    const chain = new RecordChain();
    const first = JSON.parse(JSON.stringify(chain.next(record(0, { messages })))) as LlmRecord; // posted: copied out of the process now
    messages[1].toolCalls![0].output = 'the result';
    messages.push({ role: 'assistant' });
    const second = chain.next(record(1, { messages }));
    expect(second.requestBase).toEqual({ nodeId: 'n0', keys: ['messages'], same: [], prefix: { messages: 1 } });
    const reader = new RequestReader([first, JSON.parse(JSON.stringify(second))]);
    reader.at(0);
    expect(reader.at(1)).toEqual({ messages: [{ role: 'user' }, { role: 'assistant', toolCalls: [{ id: 'c1', output: 'the result' }] }, { role: 'assistant' }] });
  });

  it('posts a record over the bound as a stand-in that says so; the next record extends the one before it', () => {
    const chain = new RecordChain(2_000);
    const small = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const big = { model: 'm', messages: [...small.messages, { role: 'user', content: 'x'.repeat(5_000) }] };
    const after = { model: 'm', messages: [...small.messages, { role: 'assistant', content: 'ok' }] };
    const posted = [chain.next(record(0, small)), chain.next(record(1, big)), chain.next(record(2, after))];
    expect(posted[1]).toEqual({ v: 1, type: 'llm_record', runId: 'r', nodeId: 'n1', api: 'openai-chat', events: [], request: { omitted: expect.stringMatching(/^Not kept: the raw request and stream events of this call \(\d+ bytes exceeds the bound of 2000 bytes\)\.$/) } });
    expect((posted[2].requestBase as RequestBase).nodeId).toBe('n0');
    const reader = new RequestReader(posted);
    expect(reader.at(2)).toEqual(after);
  });

  it('property: any sequence of requests, some over the bound, reads back as sent wherever it was kept', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const request = fc.oneof(
      fc.record({ model: fc.constantFrom('a', 'b'), messages: fc.array(json, { maxLength: 6 }), tools: fc.array(json, { maxLength: 2 }) }),
      json,
    );
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 12 }), fc.integer({ min: 300, max: 900 }), (requests, bound) => {
        // Later requests grow the earlier ones, as a conversation does.
        const grown = requests.map((r, i) => {
          const prev = requests[i - 1] as { messages?: unknown[] } | undefined;
          const cur = r as { messages?: unknown[] };
          return prev?.messages && cur && typeof cur === 'object' && Array.isArray(cur.messages) ? { ...cur, messages: [...prev.messages, ...cur.messages] } : r;
        });
        const chain = new RecordChain(bound);
        const posted = grown.map((r, i) => JSON.parse(JSON.stringify(chain.next(record(i, r)))) as LlmRecord);
        const reader = new RequestReader(posted);
        posted.forEach((p, i) => {
          if (JSON.stringify(p).length > bound) throw new Error(`record ${i} is over the bound`);
          const omitted = (p.request as { omitted?: unknown } | null)?.omitted;
          if (typeof omitted === 'string' && omitted.startsWith('Not kept: the raw request') && p.events.length === 0 && !p.requestBase) return;
          expect(JSON.stringify(reader.at(i))).toBe(JSON.stringify(grown[i]));
        });
      }),
      { numRuns: 300 },
    );
  });
});
