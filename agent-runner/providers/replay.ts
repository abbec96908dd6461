/**
 * The `replay` provider (docs/architecture.md#providers): plays back the recorded raw events of an earlier run's LLM
 * node through the same handler the live provider of that API uses, so the sink calls and the
 * result are the same as the original call's. The run is `$home/runs/<threadId>/<runId>.json`
 * (a `RunRecord`); `model.replay = { runId, nodeId? }` picks it. Without `nodeId`, the k-th call
 * on one provider instance plays the run's k-th own model call (a ReAct run replays turn by
 * turn; the runner keeps one instance per run, agent-runner/providers/factory.ts).
 *
 * Pace: recorded gaps are kept, scaled by `model.params.extra.replaySpeed` (default 1; 0 plays
 * at once), each gap capped at 2 s.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord } from '../../shared/protocol/host-api';
import type { ExecNode, NodeError } from '../../shared/protocol/nodes';
import { modelCalls } from '../../shared/thread/run-points';
import { RequestReader } from '../../shared/protocol/request-delta';
import type { LlmCallResult, LlmRequest, Provider, StreamSink } from './types';
import { BaseHandler, failingProvider, type StreamHandlerClass } from './live';
import type { ErrorContext } from './errors';
import { OpenAIChatHandler } from './openai-chat';
import { OpenAIResponsesHandler } from './openai-responses';
import { AnthropicHandler } from './anthropic';

type Recorded = RunRecord['records'][number];

/**
 * `rec` (one of `run.records`) with its request whole: a run file stores each request as what
 * it adds to the previous one (shared/protocol/request-delta.ts). `reader` reads `run.records`.
 */
export function wholeRecord(run: RunRecord, rec: Recorded, reader: RequestReader): Recorded {
  const { requestBase: _b, ...own } = rec;
  return { ...own, request: reader.at(run.records.indexOf(rec)) };
}

/** The scripted provider's own event format (`{ kind, delta, … }`), which has no end marker. */
class ScriptedEventsHandler extends BaseHandler {
  protected missingEnd(): string {
    return 'none';
  }
  protected handle(ev: Record<string, any>): void {
    this.completed = true;
    if (ev.kind === 'thinking') this.acc.thinking('thinking', String(ev.delta));
    else if (ev.kind === 'text') this.acc.text('text', String(ev.delta));
    else if (ev.kind === 'tool_start') this.acc.toolCall(`t${ev.index}`, { id: ev.id, name: ev.name });
    else if (ev.kind === 'tool_args') this.acc.toolArgs(`t${ev.index}`, String(ev.delta));
    if (this.acc.toolCallCount) this.acc.stopReason = 'tool_calls';
  }
  override finish(): LlmCallResult {
    this.completed = true;
    return super.finish();
  }
}

/** Raw-event handlers by wire API (and the built-in provider ids records may carry). */
const HANDLERS: Record<string, StreamHandlerClass> = {
  'openai-completions': OpenAIChatHandler,
  'openai-responses': OpenAIResponsesHandler,
  'anthropic-messages': AnthropicHandler,
  scripted: ScriptedEventsHandler,
};

/** The wire API of a record: its `api` when it names one, else recognised from the events. */
export function recordApi(rec: Pick<Recorded, 'api' | 'events'>): string | undefined {
  if (HANDLERS[rec.api]) return rec.api;
  for (const { data } of rec.events) {
    const d = data as Record<string, unknown> | null;
    if (!d || typeof d !== 'object') continue;
    if (d.object === 'chat.completion.chunk' || Array.isArray(d.choices)) return 'openai-completions';
    const type = typeof d.type === 'string' ? d.type : '';
    if (type.startsWith('response.')) return 'openai-responses';
    if (/^(message_|content_block_)/.test(type)) return 'anthropic-messages';
    if (typeof d.kind === 'string') return 'scripted';
  }
  if (rec.api === 'openai') return 'openai-completions';
  if (rec.api === 'anthropic') return 'anthropic-messages';
  return undefined;
}

const replayError = (message: string): NodeError => ({ message, code: 'replay' });

/** Reads run `runId` from `$home/runs/<threadId>/<runId>.json`, or says why it cannot. */
export async function findRunRecord(home: string, runId: string): Promise<RunRecord | NodeError> {
  if (!runId || /[\\/]|\.\./.test(runId)) return replayError(`Replay: "${runId}" is not a run id.`);
  const runsDir = path.join(home, 'runs');
  let dirs: string[];
  try {
    dirs = await readdir(runsDir);
  } catch {
    return replayError(`Replay: no recorded runs in ${runsDir}. Run the thread once with a real model, then replay that run.`);
  }
  for (const dir of dirs) {
    const file = path.join(runsDir, dir, `${runId}.json`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    try {
      const run = JSON.parse(text) as RunRecord;
      if (!Array.isArray(run.records)) return replayError(`Replay: ${file} has no "records" array.`);
      const bad = run.records.findIndex((r) => !r || typeof r !== 'object' || typeof (r as { nodeId?: unknown }).nodeId !== 'string');
      if (bad >= 0) return replayError(`Replay: ${file} records[${bad}] is not a model call's record (${JSON.stringify(run.records[bad])?.slice(0, 60) ?? 'undefined'}).`);
      return run;
    } catch (err) {
      return replayError(`Replay: ${file} is not valid JSON (${(err as Error).message}).`);
    }
  }
  return replayError(`Replay: run ${runId} was not found under ${runsDir}. Pick a run from the run history.`);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

const MAX_GAP_MS = 2000;

/**
 * Plays one recorded model call back through the handler of its wire API: the recorded request
 * goes to the sink as the call's raw request, each recorded event in order (gaps kept, scaled by
 * `speed`, 0 = at once), and the call ends as its node ended (cancelled, error, interrupted).
 */
export async function playRecording(rec: Recorded, node: ExecNode | undefined, req: LlmRequest, sink: StreamSink, speed: number): Promise<LlmCallResult> {
  const api = recordApi(rec);
  if (!api) return failingProvider(replayError(`Replay: the recorded call of node ${rec.nodeId} uses api "${rec.api}", which cannot be replayed.`)).stream();
  const recordedModel = (rec.request as { model?: unknown } | null)?.model;
  const ctx: ErrorContext = { provider: rec.api, model: typeof recordedModel === 'string' ? recordedModel : req.model.id, baseUrl: '(replay)' };
  const handler = new HANDLERS[api](sink, ctx);
  try {
    sink.request(rec.request);
    let last = 0;
    for (const { t, data } of rec.events) {
      if (speed > 0) await sleep(Math.min(MAX_GAP_MS, (t - last) / speed), req.signal);
      last = t;
      if (req.signal.aborted) return handler.cancel();
      sink.event(data);
      handler.event(data);
      if (handler.failed) break;
    }
  } catch (err) {
    return handler.fail(replayError(`Replay failed: ${(err as Error).message}`));
  }
  if (req.signal.aborted) return handler.cancel();
  // How the original call ended, as its node recorded it (HTTP and network errors leave no event).
  if (node?.status === 'cancelled') return handler.cancel();
  if (node?.status === 'error' && node.error) return handler.fail(node.error);
  if (node?.status === 'interrupted') return handler.fail(replayError('The recorded call was interrupted (the app stopped while it streamed).'));
  return handler.finish();
}

/**
 * The recorded call the k-th call (0-based) of a replay plays: the run's k-th own model call
 * (modelCalls in shared/thread/run-points.ts; calls nested under tools are not counted, as a
 * replay reuses the tools' recorded results), or its k-th record when the run has no nodes.
 */
function recordForCall(run: RunRecord, k: number): Recorded | undefined {
  const calls = modelCalls(run);
  if (!calls.length) return run.records[k];
  const node = calls[k];
  return node && run.records.find((r) => r.nodeId === node.id);
}

/** Creates the replay provider reading runs under `home`. */
export function createReplayProvider(home: string): Provider {
  const calls = new Map<string, number>();
  // Runs read so far (a finished run's file does not change), each with the reader of its requests.
  const runs = new Map<string, { run: RunRecord; reader: RequestReader }>();
  return {
    async stream(req, sink) {
      const ref = req.model.replay;
      if (!ref?.runId) return failingProvider(replayError('Replay: set model.replay.runId to the run to play back.')).stream();
      let read = runs.get(ref.runId);
      if (!read) {
        const found = await findRunRecord(home, ref.runId);
        if ('message' in found) return failingProvider(found).stream();
        runs.set(ref.runId, (read = { run: found, reader: new RequestReader(found.records) }));
      }
      const { run, reader } = read;
      let rec: Recorded | undefined;
      if (ref.nodeId) {
        rec = run.records.find((r) => r.nodeId === ref.nodeId);
        if (!rec) return failingProvider(replayError(`Replay: run ${ref.runId} has no recorded LLM call for node ${ref.nodeId}.`)).stream();
      } else {
        const k = calls.get(ref.runId) ?? 0;
        calls.set(ref.runId, k + 1);
        rec = recordForCall(run, k);
        const total = modelCalls(run).length || run.records.length;
        if (!rec) return failingProvider(replayError(`Replay: run ${ref.runId} has ${total} recorded LLM call(s); this is call ${k + 1}.`)).stream();
      }
      const speed = Number(req.model.params.extra?.replaySpeed ?? 1);
      return playRecording(wholeRecord(run, rec, reader), run.nodes?.find((n) => n.id === rec.nodeId), req, sink, speed);
    },
  };
}
