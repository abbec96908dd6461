/**
 * The runner's end of the brokered MCP transport (docs/architecture.md#mcp-channel, Electron): a Port to the
 * mcp-host that asks the host for a direct channel before the first call (`port_request`),
 * holds messages until the mcp-host greets on the channel (`ready`), and — when that mcp-host
 * generation dies — ends the calls in flight on it with a clear `isError` result and asks for a
 * new channel on the next call. A channel that dies before its greeting carried nothing, so
 * the held calls simply wait for the next one. McpToolExecutor sees an ordinary Port.
 * Control messages: shared/protocol/mcp.ts (`RunnerToHostMcpControl`, `HostToRunnerMcpControl`).
 */
import type { McpToRunner, RunnerToHostMcpControl, RunnerToMcp } from '../../../shared/protocol/mcp';
import type { Port } from '../../../shared/protocol/runner';
import type { ClosablePort } from '../../../shared/process-port.node.js';
import { HOST_TO_RUNNER_MCP_CONTROL, MCP_TO_RUNNER } from '../../../shared/protocol/contract/mcp-channel';
import { messageGate, type GateOptions } from '../../../shared/protocol/contract/gate';
import { toolErrorOutput } from '../../../shared/thread/tool-output';

export interface BrokeredPortDeps {
  /** The run's `mcp` channel on its process link: control messages only (checked here). */
  control: Port<unknown, RunnerToHostMcpControl>;
  /** Registers for `port` messages, each with its transferred channel end (checked here). */
  onPort: (listener: (msg: unknown, port: ClosablePort<unknown, RunnerToMcp>) => void) => void;
  /**
   * After the channel closes, how long to wait for the host's `port_lost` (which says why the
   * mcp-host died) before failing the calls in flight with a generic reason. Default 500 ms.
   */
  lostReasonWaitMs?: number;
  /** Where messages that break the contract are logged (default stderr). */
  gate?: GateOptions;
}

interface Channel {
  port: ClosablePort<unknown, RunnerToMcp>;
  epoch: number;
  /** The mcp-host greeted: messages go out directly. */
  ready: boolean;
}

/**
 * A Port<McpToRunner, RunnerToMcp> over channels brokered by the host. What the host and the
 * mcp-host send is checked against the contract (HOST_TO_RUNNER_MCP_CONTROL, MCP_TO_RUNNER);
 * anything else is dropped and logged.
 */
export function brokeredMcpPort(deps: BrokeredPortDeps): Port<McpToRunner, RunnerToMcp> {
  const fromHost = messageGate('agent-runner', HOST_TO_RUNNER_MCP_CONTROL, deps.gate);
  const fromMcpHost = messageGate('agent-runner', MCP_TO_RUNNER, deps.gate);
  const listeners = new Set<(m: McpToRunner) => void>();
  const emit = (m: McpToRunner) => {
    for (const l of listeners) l(m);
  };
  const fail = (callId: string, text: string) => emit({ type: 'result', callId, output: toolErrorOutput(text), mcpLog: [] });
  let current: Channel | undefined;
  /** A port request is out; its answer (`port` or `port_unavailable`) has not come. */
  let waiting = false;
  /** Messages not yet sent: no channel, or one that has not greeted. */
  let held: RunnerToMcp[] = [];
  /** Calls sent on the current channel that have no result yet. */
  const inFlight = new Set<string>();
  let lostTimer: NodeJS.Timeout | undefined;

  const request = () => {
    if (waiting) return;
    waiting = true;
    deps.control.post({ type: 'port_request' });
  };

  /**
   * The current channel is gone: calls sent on it are lost; held ones go on a new channel
   * (asked for here unless `replaced`: a new channel is already taking its place).
   */
  const drop = (channel: Channel, why: string, replaced = false) => {
    clearTimeout(lostTimer);
    if (current !== channel) return;
    current = undefined;
    channel.port.close();
    const calls = [...inFlight];
    inFlight.clear();
    for (const callId of calls) fail(callId, `MCP call lost: ${why} while the call ran. It restarts automatically; run the tool again.`);
    if (!replaced && held.some((h) => h.type === 'call')) request();
  };

  const send = (msg: RunnerToMcp) => {
    if (current?.ready) {
      if (msg.type === 'call') inFlight.add(msg.callId);
      current.port.post(msg);
      return;
    }
    if (msg.type === 'cancel') {
      // A held call is cancelled here: it never reached the mcp-host.
      const i = held.findIndex((h) => h.type === 'call' && h.callId === msg.callId);
      if (i >= 0) {
        held.splice(i, 1);
        fail(msg.callId, `MCP call cancelled before it reached the mcp-host${msg.reason ? ` (${msg.reason})` : ''}.`);
      }
      return;
    }
    // An answer to a server request from a lost channel has no one to go to.
    if (msg.type !== 'call') return;
    held.push(msg);
    if (!current) request();
  };

  deps.onPort((m, port) => {
    if (!fromHost.accept(m, 'the host') || m.type !== 'port') {
      port.close();
      return;
    }
    waiting = false;
    if (current) drop(current, 'the host replaced the connection to the mcp-host', true);
    const channel: Channel = { port, epoch: m.epoch, ready: false };
    current = channel;
    port.onMessage((r) => {
      if (!fromMcpHost.accept(r, 'the mcp-host')) return;
      if (r.type === 'ready') {
        if (channel.ready || current !== channel) return;
        channel.ready = true;
        const pending = held;
        held = [];
        for (const h of pending) send(h);
        return;
      }
      if (r.type === 'result') inFlight.delete(r.callId);
      emit(r);
    });
    port.onClose(() => {
      if (current !== channel) return;
      if (!channel.ready) {
        drop(channel, 'the connection to the mcp-host closed');
        return;
      }
      clearTimeout(lostTimer);
      lostTimer = setTimeout(() => drop(channel, 'the connection to the mcp-host closed'), deps.lostReasonWaitMs ?? 500);
      lostTimer.unref?.();
    });
  });

  deps.control.onMessage((m) => {
    if (!fromHost.accept(m, 'the host')) return;
    if (m.type === 'port_lost') {
      if (current && current.epoch === m.epoch) drop(current, m.message);
    } else if (m.type === 'port_unavailable') {
      waiting = false;
      if (current) return; // an older request failed, but a channel is here
      const pending = held;
      held = [];
      for (const h of pending) if (h.type === 'call') fail(h.callId, `MCP unavailable: ${m.message}`);
    }
  });

  return {
    post: send,
    onMessage: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
