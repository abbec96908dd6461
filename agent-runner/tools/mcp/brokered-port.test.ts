/**
 * The runner's end of the brokered MCP transport, with the host's control channel and the
 * transferred channel ends as in-memory objects (the protocol logic is what is under test;
 * tests/integration/desktop/mcp-ports.test.ts runs it across real processes).
 */
import { describe, expect, it } from 'vitest';
import type { HostToRunnerMcpControl, McpToRunner, RunnerToHostMcpControl, RunnerToMcp } from '../../../shared/protocol/mcp';
import type { ClosablePort } from '../../../shared/process-port.node.js';
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

function setup() {
  const control: RunnerToHostMcpControl[] = [];
  const controlListeners = new Set<(m: HostToRunnerMcpControl) => void>();
  let portListener: ((msg: unknown, port: ClosablePort<McpToRunner, RunnerToMcp>) => void) | undefined;
  const port = brokeredMcpPort({
    control: { post: (m) => control.push(m), onMessage: (l) => (controlListeners.add(l), () => controlListeners.delete(l)) },
    onPort: (l) => (portListener = l),
    lostReasonWaitMs: 20,
  });
  const received: McpToRunner[] = [];
  port.onMessage((m) => received.push(m));
  return {
    port,
    control,
    received,
    host: (m: HostToRunnerMcpControl) => controlListeners.forEach((l) => l(m)),
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
});
