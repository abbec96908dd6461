/**
 * The runner's end of the brokered MCP transport (DESIGN §1, Electron): a Port to the
 * mcp-host that asks the host for a direct channel before the first message
 * (`port_request`), holds messages until the channel arrives, and — when that mcp-host
 * generation dies — ends the calls in flight on it with a clear `isError` result and asks for a
 * new channel on the next call. McpToolExecutor sees an ordinary Port either way.
 * Control messages: shared/protocol/mcp.ts (`RunnerToHostMcpControl`, `HostToRunnerMcpControl`).
 */
import type { HostToRunnerMcpControl, McpToRunner, RunnerToHostMcpControl, RunnerToMcp } from '../../../shared/protocol/mcp';
import type { Port } from '../../../shared/protocol/runner';
import type { ToolOutput } from '../../../shared/thread/schema';
import type { ClosablePort } from '../../process-port';

export interface BrokeredPortDeps {
  /** The run's `mcp` channel on its process link: control messages only. */
  control: Port<HostToRunnerMcpControl, RunnerToHostMcpControl>;
  /** Registers for `port` messages, each with its transferred channel end. */
  onPort: (listener: (msg: unknown, port: ClosablePort<McpToRunner, RunnerToMcp>) => void) => void;
  /**
   * After the channel closes, how long to wait for the host's `port_lost` (which says why the
   * mcp-host died) before failing the calls in flight with a generic reason. Default 500 ms.
   */
  lostReasonWaitMs?: number;
}

function lostOutput(why: string): ToolOutput {
  return { content: [{ type: 'text', text: `MCP call lost: ${why} while the call ran. It restarts automatically; run the tool again.` }], isError: true };
}

/** A Port<McpToRunner, RunnerToMcp> over channels brokered by the host. */
export function brokeredMcpPort(deps: BrokeredPortDeps): Port<McpToRunner, RunnerToMcp> {
  const listeners = new Set<(m: McpToRunner) => void>();
  const emit = (m: McpToRunner) => {
    for (const l of listeners) l(m);
  };
  let current: { port: ClosablePort<McpToRunner, RunnerToMcp>; epoch: number } | undefined;
  let waiting = false;
  /** Messages posted while no channel is open, sent in order once one arrives. */
  let held: RunnerToMcp[] = [];
  /** Calls sent on the current channel that have no result yet. */
  const inFlight = new Set<string>();
  let lostTimer: NodeJS.Timeout | undefined;

  const lose = (port: ClosablePort<McpToRunner, RunnerToMcp>, why: string) => {
    clearTimeout(lostTimer);
    if (current?.port !== port) return;
    current = undefined;
    port.close();
    const calls = [...inFlight];
    inFlight.clear();
    for (const callId of calls) emit({ type: 'result', callId, output: lostOutput(why), mcpLog: [] });
  };

  const send = (msg: RunnerToMcp) => {
    if (current) {
      if (msg.type === 'call') inFlight.add(msg.callId);
      current.port.post(msg);
      return;
    }
    // Without a channel, only calls (and cancels of held calls) wait; an answer to a server
    // request, or a cancel of a call, that was on a lost channel has no one to go to.
    const waits = msg.type === 'call' || (msg.type === 'cancel' && held.some((h) => h.type === 'call' && h.callId === msg.callId));
    if (!waits) return;
    held.push(msg);
    if (!waiting) {
      waiting = true;
      deps.control.post({ type: 'port_request' });
    }
  };

  deps.onPort((msg, port) => {
    const m = msg as HostToRunnerMcpControl | null;
    if (!m || m.type !== 'port') {
      port.close();
      return;
    }
    if (current) lose(current.port, 'the host replaced the connection to the mcp-host');
    current = { port, epoch: m.epoch };
    waiting = false;
    port.onMessage((r) => {
      if (r && typeof r === 'object' && r.type === 'result') inFlight.delete(r.callId);
      emit(r);
    });
    port.onClose(() => {
      if (current?.port !== port) return;
      clearTimeout(lostTimer);
      lostTimer = setTimeout(() => lose(port, 'the connection to the mcp-host closed'), deps.lostReasonWaitMs ?? 500);
      lostTimer.unref?.();
    });
    const pending = held;
    held = [];
    for (const h of pending) send(h);
  });

  deps.control.onMessage((m) => {
    if (!m || typeof m !== 'object') return;
    if (m.type === 'port_lost') {
      if (current && current.epoch === m.epoch) lose(current.port, m.message);
    } else if (m.type === 'port_unavailable') {
      waiting = false;
      const pending = held;
      held = [];
      for (const h of pending) {
        if (h.type !== 'call') continue;
        emit({ type: 'result', callId: h.callId, output: { content: [{ type: 'text', text: `MCP unavailable: ${m.message}` }], isError: true }, mcpLog: [] });
      }
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
