import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createStore } from 'jotai';
import { StreamStore } from './stream-store';
import { parseArgsText } from './tool-args-parse';
import type { HostPush } from '../../../shared/protocol/host-api';
import { collapseEmptyArrays, jsonDocument, splitText } from '../../../tests/support/json-documents';

/** A real StreamStore fed one run's tool-argument deltas; `args()` flushes a frame and reads call 0. */
function streaming() {
  const atoms = createStore();
  // Stream time jumps far ahead per delta, so no throttle ever delays a parse.
  let now = 0;
  const s = new StreamStore(atoms, { requestSnapshot: () => {}, schedule: () => {}, clock: () => now });
  let seq = 0;
  const push = (p: HostPush) => s.apply(p);
  return {
    s,
    push,
    delta(text: string): void {
      now += 1e9;
      push({ v: 1, type: 'llm_delta', runId: 'r1', nodeId: 'n1', channel: 'tool_args', index: 0, delta: text, seq: ++seq });
    },
    get seq() {
      return seq;
    },
    set seq(v: number) {
      seq = v;
    },
    args(): unknown {
      s.flush();
      return atoms.get(s.nodeAtom('n1'))?.args[0];
    },
  };
}

/** A ~`kb` KB argument: a file-writing call with records, as models stream them. */
function recordsArgument(kb: number): string {
  const rows: unknown[] = [];
  for (let i = 0; JSON.stringify(rows).length < kb * 1000; i++) rows.push({ id: i, name: `row ${i}`, tags: ['a', 'b'], score: i / 8, note: `"q" \\ ${i}` });
  return JSON.stringify({ path: '/tmp/out.json', rows });
}

describe('StreamStore tool arguments', () => {
  it('shows what partial-json shows after every delta of valid JSON, a frame per delta', () => {
    fc.assert(
      fc.property(jsonDocument, fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1 }), (doc, sizes) => {
        const st = streaming();
        let text = '';
        for (const part of splitText(doc.text, sizes)) {
          st.delta(part);
          text += part;
          // `[ ]` is read as JSON.parse reads it (partial-json drops what follows it).
          expect(st.args(), `after ${JSON.stringify(text)}`).toEqual(parseArgsText(collapseEmptyArrays(text)));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('shows malformed JSON exactly as partial-json does, as before', () => {
    const unit = fc.constantFrom(...'{}[]":, \\u0a1-.eEtrunl'.split(''));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 24 }).filter((t) => !/\[[ \t\n\r]+\]/.test(t)), (text) => {
        const st = streaming();
        for (let i = 0; i < text.length; i++) {
          st.delta(text[i]);
          expect(st.args(), `after ${JSON.stringify(text.slice(0, i + 1))}`).toEqual(parseArgsText(text.slice(0, i + 1)));
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('reads each argument character about once in all, even with a frame after every delta', () => {
    const raw = recordsArgument(20);
    const st = streaming();
    for (let i = 0, k = 0; i < raw.length; k++) {
      const n = 1 + (k % 4);
      st.delta(raw.slice(i, i + n));
      i += n;
      st.args();
    }
    expect(st.args()).toEqual(JSON.parse(raw));
    // partial-json on the whole text each frame reads ~n²/5 characters (80 million here).
    expect(st.s.argsWork.read).toBeLessThanOrEqual(2 * raw.length);
  });

  it('builds each frame\'s value from the open path only: a long content string costs the same at its start and end', () => {
    const st = streaming();
    st.delta('{"path":"/tmp/a.txt","mode":"overwrite","content":"');
    const built: number[] = [];
    for (let k = 0; k < 3000; k++) {
      st.delta(k % 9 === 0 ? '\\n ' : 'text');
      const before = st.s.argsWork.built;
      st.args();
      built.push(st.s.argsWork.built - before);
    }
    // One object with its two closed members, every frame.
    expect(new Set(built)).toEqual(new Set([3]));
  });

  it('parses the whole text again when a snapshot replaces it, then keeps appending', () => {
    const st = streaming();
    st.delta('{"a":[1');
    expect(st.args()).toEqual({ a: [1] });
    st.push({ v: 1, type: 'llm_delta', runId: 'r1', nodeId: 'n1', channel: 'tool_args', index: 0, delta: 'lost', seq: 5 }); // a gap: syncing
    st.push({ v: 1, type: 'node_snapshot', runId: 'r1', nodeId: 'n1', seq: 5, status: 'running', text: '', thinking: '', toolArgs: { 0: '{"b":"x' } });
    expect(st.args()).toEqual({ b: 'x' });
    st.seq = 5;
    st.delta('y", "c": tr');
    expect(st.args()).toEqual({ b: 'xy', c: true });
  });

  it('shows the final arguments of the closing output, even when they differ from what streamed', () => {
    const st = streaming();
    st.delta('{"a":1');
    expect(st.args()).toEqual({ a: 1 });
    st.push({
      v: 1,
      type: 'tree_update',
      runId: 'r1',
      nodes: [{ id: 'n1', runId: 'r1', kind: 'llm', name: 'm', status: 'completed', startedAt: 0, endedAt: 1, output: { text: '', toolCalls: [{ id: 'c', name: 't', arguments: {}, rawArguments: '{"a":2}' }] } }],
    });
    expect(st.args()).toEqual({ a: 2 });
  });
});
