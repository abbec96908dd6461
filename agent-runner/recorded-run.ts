/**
 * Builds the {@link RecordedCalls} of a run from an earlier run's record
 * (docs/architecture.md#branches-and-time-travel):
 * - time travel (`spec.fromRun = { runId, fromCall: k }`): model calls 1..k-1 are played back
 *   from their recordings at once and the tool calls they made get their recorded results; call
 *   k and later go to the provider, and their tools run.
 * - a replay on the `replay` provider (`model.replay.runId` without `nodeId`): the provider plays
 *   every call; the tool calls get their recorded results too, so a replay contacts no tool.
 */
import type { RunRecord } from '../shared/protocol/host-api';
import type { NodeError } from '../shared/protocol/nodes';
import type { RunSpec } from '../shared/protocol/runner';
import type { ToolOutput } from '../shared/thread/messages';
import { modelCalls } from '../shared/thread/run-points';
import type { RecordedCalls } from './loop/recorded';
import type { Provider } from './providers/types';
import { findRunRecord, playRecording, wholeRecord } from './providers/replay';
import { RequestReader } from '../shared/protocol/request-delta';

/** Turn → tool call id → recorded result, for the tool nodes under each of the run's model calls. */
function toolOutputsByTurn(run: RunRecord): Map<string, ToolOutput>[] {
  return modelCalls(run).map((call) => {
    const outputs = new Map<string, ToolOutput>();
    for (const n of run.nodes) {
      const out = n.output as ToolOutput | undefined;
      if (n.kind !== 'tool' || n.parentId !== call.id || !n.toolCallId || !out || !Array.isArray(out.content)) continue;
      if (n.status === 'completed' || n.status === 'error') outputs.set(n.toolCallId, out);
    }
    return outputs;
  });
}

/** True when the thread's model is the replay provider playing a whole run. */
function replaysWholeRun(spec: RunSpec): string | undefined {
  const { model } = spec.thread;
  const api = spec.providers.find((p) => p.id === model.provider)?.api ?? (model.provider === 'replay' ? 'replay' : undefined);
  return api === 'replay' && model.replay?.runId && !model.replay.nodeId ? model.replay.runId : undefined;
}

/**
 * What the run reuses, undefined when nothing, or the error that stops it (the earlier run is
 * missing, or has no model call `fromCall`).
 */
export async function recordedCalls(spec: RunSpec): Promise<RecordedCalls | NodeError | undefined> {
  const from = spec.fromRun;
  const whole = from ? undefined : replaysWholeRun(spec);
  const runId = from?.runId ?? whole;
  if (!runId) return undefined;
  const run = await findRunRecord(spec.home, runId);
  if ('message' in run) return from ? run : undefined; // a replay without its run fails at its first call
  const tools = toolOutputsByTurn(run);
  if (whole) return { runId, call: () => undefined, toolOutput: (turn, id) => tools[turn]?.get(id) };
  const calls = modelCalls(run);
  const k = from!.fromCall;
  if (k < 1 || k > calls.length) {
    return { message: `Time travel: run ${runId} has ${calls.length} model call(s); call ${k} is not one of them.`, code: 'bad_request' };
  }
  const reader = new RequestReader(run.records);
  const players: Provider[] = calls.slice(0, k - 1).map((node, i) => {
    const rec = run.records.find((r) => r.nodeId === node.id);
    return {
      api: rec?.api,
      stream: async (req, sink) =>
        rec
          ? playRecording(wholeRecord(run, rec, reader), node, req, sink, 0)
          : { content: [], toolCalls: [], stopReason: 'error', error: { message: `Time travel: run ${runId} has no recording of its model call ${i + 1}.`, code: 'replay' } },
    };
  });
  return {
    runId,
    call: (turn) => players[turn],
    toolOutput: (turn, id) => (turn < k - 1 ? tools[turn]?.get(id) : undefined),
  };
}
