import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkedPort, messageGate, messageProblem } from './gate';
import { HOST_TO_MCP_HOST, MCP_TO_RUNNER, RUNNER_TO_MCP } from './mcp-channel';
import type { Port } from '../runner';

const call = { type: 'call', callId: 'c1', server: 's', tool: 't', arguments: { a: 1 } };
const result = { type: 'result', callId: 'c1', output: { content: [{ type: 'text', text: 'ok' }], isError: false }, mcpLog: [] };

/** A clock the test moves by hand. */
function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('messageGate', () => {
  it('passes valid messages untouched and unlogged', () => {
    const lines: string[] = [];
    const gate = messageGate('test', RUNNER_TO_MCP, { log: (l) => lines.push(l) });
    expect(gate.accept(call)).toBe(true);
    expect(gate.accept({ type: 'cancel', callId: 'c1' })).toBe(true);
    expect(gate.dropped).toBe(0);
    expect(lines).toEqual([]);
  });

  it('names the message type and its first problem, inside a nested message too', () => {
    const { arguments: _omit, ...noArgs } = call;
    expect(messageProblem(RUNNER_TO_MCP, noArgs)).toBe('/arguments: Expected required property');
    expect(messageProblem(HOST_TO_MCP_HOST, { type: 'runner', runId: 'r', msg: noArgs })).toBe('/msg/arguments: Expected required property');
    expect(messageProblem(HOST_TO_MCP_HOST, { type: 'runner', runId: 'r', msg: { type: 'launch' } })).toBe(
      '/msg/type: unknown type "launch" (expected call, cancel, server_request_result)',
    );
    expect(messageProblem(RUNNER_TO_MCP, 'call')).toBe('/: not an object (string)');
    expect(messageProblem(MCP_TO_RUNNER, { ...result, output: { content: 'ok', isError: false } })).toBe('/output/content: Expected array');
    const lines: string[] = [];
    const gate = messageGate('mcp-host', RUNNER_TO_MCP, { log: (l) => lines.push(l) });
    expect(gate.accept({ ...call, arguments: 'x' }, 'run r1')).toBe(false);
    expect(lines).toEqual(['[mcp-host] dropped a malformed "call" message from run r1: /arguments: Expected object']);
  });

  it('logs one line per interval, the next one counting the drops left out', () => {
    const lines: string[] = [];
    const c = clock();
    const gate = messageGate('host', RUNNER_TO_MCP, { log: (l) => lines.push(l), everyMs: 1000, now: c.now });
    for (let i = 0; i < 50; i++) gate.accept({ type: 'cancel' });
    expect(lines).toHaveLength(1);
    c.advance(999);
    gate.accept(null);
    expect(lines).toHaveLength(1);
    c.advance(1);
    gate.accept(42);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('[host] dropped a malformed untyped message: /: not an object (number) (50 more dropped since the last line)');
    expect(gate.dropped).toBe(52);
  });

  it('property: never throws on any value; a refused value gets one short single line naming it', () => {
    const tables = [RUNNER_TO_MCP, MCP_TO_RUNNER, HOST_TO_MCP_HOST];
    const typed = fc.record({ type: fc.oneof(fc.constantFrom('call', 'result', 'runner', '__proto__', 'toString'), fc.string()) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.constantFrom(...tables), fc.oneof(fc.anything(), typed.chain((t) => fc.dictionary(fc.string(), fc.anything()).map((d) => ({ ...d, ...t })))), (table, value) => {
        const lines: string[] = [];
        const gate = messageGate('p', table, { log: (l) => lines.push(l) });
        const ok = gate.accept(value);
        expect(ok).toBe(messageProblem(table, value) === undefined);
        if (ok) return;
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^\[p\] dropped a malformed (".*"|untyped) message: \/\S*: /);
        expect(lines[0]).not.toMatch(/[\p{Cc}\p{Zl}\p{Zp}]/u);
        expect(lines[0].length).toBeLessThanOrEqual(400);
      }),
      { numRuns: 500 },
    );
  });
});

describe('checkedPort', () => {
  it('checks each message once, whatever the number of listeners, and passes only valid ones', () => {
    const inner = new Set<(m: unknown) => void>();
    const raw: Port<unknown, string> = { post: () => {}, onMessage: (l) => (inner.add(l), () => inner.delete(l)) };
    const gate = messageGate('test', MCP_TO_RUNNER, { log: () => {} });
    const port = checkedPort(raw, gate);
    const a: unknown[] = [];
    const b: unknown[] = [];
    const offA = port.onMessage((m) => a.push(m));
    port.onMessage((m) => b.push(m));
    expect(inner.size).toBe(1);
    for (const m of [result, { type: 'result', callId: 'c1' }, null, { type: 'ready' }]) inner.forEach((l) => l(m));
    expect(a).toEqual([result, { type: 'ready' }]);
    expect(b).toEqual(a);
    expect(gate.dropped).toBe(2);
    offA();
    inner.forEach((l) => l({ type: 'ready' }));
    expect(a).toHaveLength(2);
    expect(b).toHaveLength(3);
  });
});
