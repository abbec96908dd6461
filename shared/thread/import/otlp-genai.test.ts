/**
 * The OTLP/JSON GenAI importer on hostile input (issue 32 item 4): cycles, missing parents,
 * spans of other kinds, 100,000 spans and garbage give an import of what could be kept with the
 * rest listed by pointer, or an ImportError naming where; never another exception.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { importOtlpGenAi } from './otlp-genai';
import { ImportError, importDocument } from './index';

const hex = (n: number, w: number) => n.toString(16).padStart(w, '0');
const TRACE = hex(7, 32);
const s = (id: number, parent: number | undefined, op: string | undefined, extra: { key: string; value: Record<string, unknown> }[] = []) => ({
  traceId: TRACE,
  spanId: hex(id, 16),
  ...(parent !== undefined ? { parentSpanId: hex(parent, 16) } : {}),
  name: op ? `${op} x` : 'http GET',
  kind: 1,
  startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(id) * 1_000_000n),
  endTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(id + 1) * 1_000_000n),
  attributes: [...(op ? [{ key: 'gen_ai.operation.name', value: { stringValue: op } }] : []), ...extra],
});
const doc = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans }] }] });
const chat = (text: string) => [
  { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
  { key: 'gen_ai.provider.name', value: { stringValue: 'openai' } },
  { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: text }] }]) } },
  { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'ok' }], finish_reason: 'stop' }]) } },
];

describe('importOtlpGenAi', () => {
  it('is detected from resourceSpans and keeps the model of the trace (openai → openai)', () => {
    const r = importDocument(doc([s(1, undefined, 'invoke_agent'), s(2, 1, 'chat', chat('hi'))]));
    expect(r.format).toBe('otlp-genai');
    expect(r.thread.model).toMatchObject({ provider: 'openai', id: 'gpt-4o' });
    expect(r.thread.context.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(r.runs[0].nodes.map((n) => n.kind)).toEqual(['run', 'llm']);
  });

  it('a cycle and a missing parent put the spans under the run, each named in the notes', () => {
    const r = importOtlpGenAi(doc([s(1, 2, 'chat', chat('a')), s(2, 1, 'execute_tool'), s(3, 99, 'chat', chat('b'))]));
    const [run] = r.runs;
    expect(run.nodes[0].kind).toBe('run');
    expect(run.nodes.filter((n) => n.parentId === run.nodes[0].id).length).toBeGreaterThanOrEqual(2);
    expect(r.notes.some((n) => /cycle/.test(n.message))).toBe(true);
    expect(r.notes.some((n) => n.pointer === '/resourceSpans/0/scopeSpans/0/spans/2/parentSpanId' && /not in the file/.test(n.message))).toBe(true);
  });

  it('a span of another kind is left out and its children hang from its parent', () => {
    const r = importOtlpGenAi(doc([s(1, undefined, 'invoke_agent'), s(2, 1, undefined), s(3, 2, 'chat', chat('x'))]));
    const [run] = r.runs;
    expect(run.nodes.map((n) => [n.kind, run.nodes.findIndex((p) => p.id === n.parentId)])).toEqual([['run', -1], ['llm', 0]]);
    expect(r.notes[0]).toMatchObject({ pointer: '/resourceSpans/0/scopeSpans/0/spans/1' });
  });

  it('100,000 spans in one chain import without overflowing the stack', () => {
    const spans = [s(1, undefined, 'invoke_agent')];
    for (let i = 2; i <= 100_000; i++) spans.push(s(i, i - 1, i % 2 ? 'chat' : undefined, i % 2 ? chat(`m${i}`) : []));
    const r = importOtlpGenAi(doc(spans));
    expect(r.runs[0].nodes).toHaveLength(50_000);
  });

  it('garbage is an ImportError naming where; bad spans are listed by pointer', () => {
    expect(() => importOtlpGenAi({ resourceSpans: 'x' })).toThrow(ImportError);
    expect(() => importOtlpGenAi(doc([{ traceId: 'zz' }]))).toThrow(/no GenAI span.*spans\/0\/traceId: expected 32 hex digits/);
    const r = importOtlpGenAi(doc([s(1, undefined, 'chat', chat('q')), { ...s(2, 1, 'chat'), startTimeUnixNano: 'soon' }]));
    expect(r.notes).toContainEqual({ pointer: '/resourceSpans/0/scopeSpans/0/spans/1/startTimeUnixNano', message: 'expected nanoseconds since the epoch' });
  });

  it('property: any JSON under resourceSpans gives a result or an ImportError, never another error', () => {
    const span = fc.record({
      traceId: fc.oneof(fc.constant(TRACE), fc.string()),
      spanId: fc.oneof(fc.integer({ min: 1, max: 6 }).map((n) => hex(n, 16)), fc.anything()),
      parentSpanId: fc.oneof(fc.integer({ min: 0, max: 7 }).map((n) => hex(n, 16)), fc.anything()),
      startTimeUnixNano: fc.oneof(fc.constant('1700000000000000000'), fc.anything()),
      attributes: fc.oneof(fc.constant(chat('p')), fc.array(fc.record({ key: fc.constantFrom('gen_ai.operation.name', 'gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.result'), value: fc.oneof(fc.record({ stringValue: fc.oneof(fc.constantFrom('chat', 'execute_tool', 'invoke_agent'), fc.json()) }), fc.anything()) }))),
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(span, fc.anything()), { maxLength: 8 }), (spans) => {
        try {
          const r = importOtlpGenAi(doc(spans));
          expect(r.thread.context.messages).toBeInstanceOf(Array);
        } catch (err) {
          if (!(err instanceof ImportError)) throw err;
        }
      }),
      { numRuns: 300 },
    );
  });
});
