/**
 * The runner's end of the brokered MCP transport, with the host's control channel and the
 * transferred channel ends as in-memory objects (the protocol logic is what is under test;
 * tests/integration/desktop/mcp-ports.test.ts runs it across real processes).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { HostToRunnerMcpControl, McpToRunner, RunnerToHostMcpControl, RunnerToMcp } from '../../../shared/protocol/mcp';
import type { ClosablePort } from '../../../shared/process-port.node.js';
import type { GateOptions } from '../../../shared/protocol/contract/gate';
import { HostToRunnerMcpControlSchema, McpToRunnerSchema } from '../../../shared/protocol/contract/mcp-channel';
import { junk } from '../../../tests/support/junk';
import { brokeredMcpPort } from './brokered-port';

/** One transferred channel end: records what the runner posts, lets the test answer or close it. */
function fakeChannel() {
  const posted: RunnerToMcp[] = [];
  const listeners = new Set<(m: McpToRunner) => void>();
  const closers: (() => void)[] = [];
  let closed = false;
  const port: ClosablePort<McpToRunner, RunnerToMcp> = {
    post: (m) => {
      if (!closed) posted.push(m);
    },
    onMessage: (l) => (listeners.add(l), () => listeners.delete(l)),
    onClose: (l) => closers.push(l),
    close: () => {
      closed = true;
    },
  };
  return {
    port,
    posted,
    answer: (m: McpToRunner) => listeners.forEach((l) => l(m)),
    remoteClose: () => closers.forEach((l) => l()),
    get closed() {
      return closed;
    },
  };
}

function setup(gate?: GateOptions) {
  const control: RunnerToHostMcpControl[] = [];
  const controlListeners = new Set<(m: HostToRunnerMcpControl) => void>();
  let portListener: ((msg: unknown, port: ClosablePort<McpToRunner, RunnerToMcp>) => void) | undefined;
  const port = brokeredMcpPort({
    control: { post: (m) => control.push(m), onMessage: (l) => (controlListeners.add(l), () => controlListeners.delete(l)) },
    onPort: (l) => (portListener = l),
    lostReasonWaitMs: 20,
    gate,
  });
  const received: McpToRunner[] = [];
  port.onMessage((m) => received.push(m));
  return {
    port,
    control,
    received,
    host: (m: HostToRunnerMcpControl) => controlListeners.forEach((l) => l(m)),
    /** A frame carrying a port, as the host would send `port`. */
    offer: (m: unknown, p: ClosablePort<McpToRunner, RunnerToMcp>) => portListener!(m, p),
    /** Hands the runner a channel; `greet: false` leaves it before the mcp-host's `ready`. */
    give: (epoch: number, greet = true) => {
      const ch = fakeChannel();
      portListener!({ type: 'port', epoch }, ch.port);
      if (greet) ch.answer({ type: 'ready' });
      return ch;
    },
  };
}

const call = (callId: string): RunnerToMcp => ({ type: 'call', callId, server: 's', tool: 't', arguments: {} });
const resultText = (m: McpToRunner | undefined) => (m?.type === 'result' ? (m.output.content[0] as { text: string }).text : undefined);

describe('brokeredMcpPort', () => {
  it('asks for a channel once, holds calls until the mcp-host greets on it, then sends them in order', () => {
    const s = setup();
    s.port.post(call('a'));
    s.port.post(call('b'));
    expect(s.control).toEqual([{ type: 'port_request' }]);
    const ch = s.give(1, false);
    expect(ch.posted).toEqual([]);
    ch.answer({ type: 'ready' });
    expect(ch.posted.map((m) => [m.type, 'callId' in m ? m.callId : undefined])).toEqual([
      ['call', 'a'],
      ['call', 'b'],
    ]);
    s.port.post(call('c'));
    expect(ch.posted).toHaveLength(3);
    expect(s.control).toHaveLength(1);
    ch.answer({ type: 'progress', callId: 'c', progress: 1 });
    expect(s.received).toEqual([{ type: 'progress', callId: 'c', progress: 1 }]);
  });

  it('ends the calls in flight when the host says their mcp-host died, and asks again for the next call', () => {
    const s = setup();
    s.port.post(call('a'));
    const ch = s.give(1);
    s.port.post(call('b'));
    ch.answer({ type: 'result', callId: 'b', output: { content: [], isError: false }, mcpLog: [] });
    s.host({ type: 'port_lost', epoch: 1, message: 'the mcp-host process crashed (signal SIGKILL)' });
    const lost = s.received.filter((m) => m.type === 'result' && m.callId === 'a');
    expect(lost).toHaveLength(1);
    expect(resultText(lost[0])).toBe('MCP call lost: the mcp-host process crashed (signal SIGKILL) while the call ran. It restarts automatically; run the tool again.');
    expect(ch.closed).toBe(true);
    // An answer for the lost call has nowhere to go; a new call asks for a new channel.
    s.port.post({ type: 'server_request_result', requestId: 'r1', result: {} });
    expect(s.control).toHaveLength(1);
    s.port.post(call('c'));
    expect(s.control).toHaveLength(2);
    const ch2 = s.give(2);
    expect(ch2.posted.map((m) => m.type)).toEqual(['call']);
    // A late notice about the old generation does not touch the new channel.
    s.host({ type: 'port_lost', epoch: 1, message: 'late' });
    expect(ch2.closed).toBe(false);
  });

  it('a channel that closes without a notice fails its calls after a short wait for the reason', async () => {
    const s = setup();
    s.port.post(call('a'));
    const ch = s.give(1);
    ch.remoteClose();
    expect(s.received).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 40));
    expect(resultText(s.received[0])).toMatch(/^MCP call lost: the connection to the mcp-host closed while the call ran/);
  });

  it('a channel that dies before its greeting carried nothing: the held calls go on the next one', () => {
    const s = setup();
    s.port.post(call('a'));
    const dead = s.give(1, false);
    dead.remoteClose();
    expect(s.received).toEqual([]);
    expect(s.control).toHaveLength(2); // asked again at once
    const ch = s.give(2);
    expect(ch.posted.map((m) => m.type === 'call' && m.callId)).toEqual(['a']);
    expect(dead.posted).toEqual([]);
  });

  it('a new channel replacing one that never greeted takes the held calls, with no extra request', () => {
    const s = setup();
    s.port.post(call('a'));
    const silent = s.give(1, false);
    const ch = s.give(2);
    // One request only: a second would bring a third channel that drops this one's calls.
    expect(s.control).toEqual([{ type: 'port_request' }]);
    expect(ch.posted.map((m) => m.type === 'call' && m.callId)).toEqual(['a']);
    expect(silent.posted).toEqual([]);
  });

  it('a held call cancelled before any channel greets ends at once, and is never sent', () => {
    const s = setup();
    s.port.post(call('a'));
    s.port.post(call('b'));
    s.port.post({ type: 'cancel', callId: 'a', reason: 'the run was cancelled' });
    expect(s.received.map((m) => [m.type === 'result' && m.callId, resultText(m)])).toEqual([
      ['a', 'MCP call cancelled before it reached the mcp-host (the run was cancelled).'],
    ]);
    const ch = s.give(1);
    expect(ch.posted.map((m) => [m.type, 'callId' in m ? m.callId : undefined])).toEqual([['call', 'b']]);
  });

  it('fails the held calls clearly when the mcp-host cannot start', () => {
    const s = setup();
    s.port.post(call('a'));
    s.port.post(call('b'));
    s.host({ type: 'port_unavailable', message: 'could not start the mcp-host: exit code 3' });
    expect(s.received.map((m) => [m.type, resultText(m)])).toEqual([
      ['result', 'MCP unavailable: could not start the mcp-host: exit code 3'],
      ['result', 'MCP unavailable: could not start the mcp-host: exit code 3'],
    ]);
    // The next call tries again.
    s.port.post(call('c'));
    expect(s.control).toHaveLength(2);
  });

  it('property: junk from the host or the mcp-host is dropped; the call in flight gets its own result only', () => {
    const control = [
      { type: 'port', epoch: 1 },
      { type: 'port_unavailable', message: 'forged' },
      { type: 'port_lost', epoch: 1, message: 'forged' },
    ];
    const channel = [
      { type: 'result', callId: 'a', output: { content: [{ type: 'text', text: 'forged' }], isError: false }, mcpLog: [] },
      { type: 'progress', callId: 'a', progress: 1, total: 2 },
      { type: 'server_request', callId: 'a', requestId: 'q', kind: 'sampling', params: {} },
      { type: 'ready' },
    ];
    const hostile = fc.oneof(
      junk(HostToRunnerMcpControlSchema, control).map((m) => ({ via: 'control' as const, m })),
      junk(HostToRunnerMcpControlSchema, control).map((m) => ({ via: 'port frame' as const, m })),
      junk(McpToRunnerSchema, channel).map((m) => ({ via: 'channel' as const, m })),
    );
    const real: McpToRunner = { type: 'result', callId: 'a', output: { content: [{ type: 'text', text: 'real' }], isError: false }, mcpLog: [] };
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 10 }), (batch) => {
        const s = setup({ log: () => {} });
        s.port.post(call('a'));
        const ch = s.give(1);
        for (const { via, m } of batch) {
          if (via === 'control') s.host(m as HostToRunnerMcpControl);
          else if (via === 'channel') ch.answer(m as McpToRunner);
          else {
            const offered = fakeChannel();
            s.offer(m, offered.port);
            expect(offered.closed).toBe(true); // a port that comes with junk is refused
          }
        }
        ch.answer(real);
        expect(s.received).toEqual([real]);
        expect(ch.closed).toBe(false);
        expect(s.control).toEqual([{ type: 'port_request' }]);
      }),
      { numRuns: 300 },
    );
  });
});
