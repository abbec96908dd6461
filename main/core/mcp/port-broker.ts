/**
 * The brokered MCP transport (docs/architecture.md#mcp-channel, Electron): instead of relaying a run's MCP traffic,
 * the host hands the run and the mcp-host the two ends of a fresh `MessageChannelMain`, and
 * the traffic (calls, progress, sampling, elicitation) flows between them directly. The host
 * sees only the small control messages of shared/protocol/mcp.ts on the run's `mcp` channel:
 *
 *   runner → host  `port_request`            (before the first call; again after a restart)
 *   host → runner  `port` + ports[0]         (the run's end; the mcp-host got the other one)
 *                  `port_unavailable`        (the mcp-host cannot start)
 *                  `port_lost`               (that mcp-host generation exited)
 */
import type { HostToRunnerMcpControl, RunnerToHostMcpControl } from '../../../shared/protocol/mcp';
import type { MessageGate } from '../../../shared/protocol/contract/gate';
import type { Port } from '../../../shared/protocol/runner';
import type { ChildLink, PortPair } from '../process/types';
import type { McpSupervisor } from './supervisor';

export interface PortBrokerDeps {
  supervisor: McpSupervisor;
  createChannel: () => PortPair;
  /** Settles when the run may be connected (the host has checked settings/mcp.json). */
  ready?: Promise<void>;
  /** Checks what the run sends (RUNNER_TO_HOST_MCP_CONTROL); anything else is dropped and logged. */
  gate: MessageGate<RunnerToHostMcpControl>;
}

/**
 * Serves one run's `port_request`s until the returned detach function is called (when the run
 * ends; that also tells the mcp-host `run_ended`, which closes its end).
 *
 * @param control the run's `mcp` channel on its process link (control messages only)
 * @param runner the run's process link, which carries the transferred port
 */
export function brokerRunPorts(
  runId: string,
  control: Port<unknown, HostToRunnerMcpControl>,
  runner: ChildLink,
  deps: PortBrokerDeps,
): () => void {
  let ended = false;
  let connecting = false;
  /** Generation of the mcp-host the run's current port leads to; 0 when it holds none. */
  let held = 0;
  let detachRun: (() => void) | undefined;

  const offExit = deps.supervisor.onHostExit((epoch, why) => {
    if (ended || held !== epoch) return;
    held = 0;
    control.post({ type: 'port_lost', epoch, message: why });
  });

  const connect = async (): Promise<void> => {
    if (connecting || ended) return;
    connecting = true;
    // Registering the run keeps a crashed mcp-host restarting while the run lives, and makes
    // detach send `run_ended`.
    detachRun ??= deps.supervisor.attachRun(runId, () => {});
    try {
      await deps.ready;
      if (ended) return;
      const { epoch, runnerEnd } = await deps.supervisor.attachChannel(runId, deps.createChannel);
      if (ended) {
        runnerEnd.close();
        return;
      }
      if (!runner.sendWithPorts?.({ ch: 'mcp', msg: { type: 'port', epoch } satisfies HostToRunnerMcpControl }, [runnerEnd])) return;
      held = epoch;
    } catch (err) {
      if (!ended) control.post({ type: 'port_unavailable', message: `could not start the mcp-host: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      connecting = false;
    }
  };

  const offControl = control.onMessage((msg) => {
    if (deps.gate.accept(msg, `run ${runId}`) && msg.type === 'port_request') void connect();
  });

  return () => {
    ended = true;
    offControl();
    offExit();
    detachRun?.();
  };
}
