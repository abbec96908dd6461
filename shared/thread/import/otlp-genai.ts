/**
 * An OpenTelemetry trace with GenAI spans (OTLP/JSON, as `stepwise export --format otlp-json`
 * or any instrumentation writes it) → a Stepwise thread and one run per trace
 * (docs/architecture.md#traces). `invoke_agent` spans become the run (at the root) or nested
 * agent nodes, `chat` / `text_completion` / `generate_content` spans model calls, `execute_tool`
 * spans tool calls; a span of another kind is left out and its children hang from its nearest
 * kept ancestor. A missing parent or a cycle puts the span under the run, with a note. The
 * thread is the last model call's conversation (`gen_ai.input.messages` + its
 * `gen_ai.output.messages`, tool results from the `execute_tool` spans), system prompt, tools
 * (`gen_ai.tool.definitions`) and model. Each model call gets a record of its output as
 * scripted events, so the replay provider plays it back (Re-run from this call). Browser-safe;
 * linear in the number of spans.
 */
import type { RunRecord } from '../../protocol/host-api';
import { isTerminal, type ExecNode, type LlmOutput, type NodeStatus } from '../../protocol/nodes';
import type { Message } from '../messages';
import type { RunRef } from '../schema';
import type { FunctionTool } from '../tools';
import type { ModelConfig } from '../model-config';
import type { ThreadProblem } from '../validate';
import { stableId } from '../ids';
import { GEN_AI, STEPWISE, providerIdOf, toolOutputOf } from '../../traces/genai';
import { fromGenAiMessages, jsonAttr, stopReasonOf, systemText } from '../../traces/genai-read';
import { readOtlpSpans, type OtlpSpan } from '../../traces/otlp-json';
import { fail, finishThread, isObj, type ImportOptions, type ImportResult } from './common';

const F = 'otlp-genai' as const;
const SAFE_ID = /^[A-Za-z0-9._-]{1,200}$/;
const STATUSES: NodeStatus[] = ['pending', 'running', 'awaiting_input', 'completed', 'error', 'cancelled', 'interrupted'];
type Role = 'run' | 'agent' | 'llm' | 'tool';

function roleOf(s: OtlpSpan): Role | undefined {
  const op = s.attributes[GEN_AI.operation];
  if (op === 'invoke_agent' || op === 'create_agent' || op === 'invoke_workflow') return 'agent';
  if (op === 'chat' || op === 'text_completion' || op === 'generate_content') return 'llm';
  if (op === 'execute_tool') return 'tool';
  return undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Appends `v` to the list at `k` (in place: copying the list per item made 100,000 spans quadratic). */
function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** One trace's kept spans with each one's parent among them (undefined: under the run). */
function treeOf(spans: OtlpSpan[], notes: ThreadProblem[]): { kept: OtlpSpan[]; parent: Map<OtlpSpan, OtlpSpan | undefined> } {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const keptAncestor = new Map<string, OtlpSpan | null>(); // nearest kept ancestor-or-self, null = none
  const resolve = (start: OtlpSpan): OtlpSpan | null => {
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur: OtlpSpan | undefined = start;
    let found: OtlpSpan | null = null;
    while (cur) {
      const memo = keptAncestor.get(cur.spanId);
      if (memo !== undefined) {
        found = memo;
        break;
      }
      if (onPath.has(cur.spanId)) {
        notes.push({ pointer: `${cur.pointer}/parentSpanId`, message: `span ${cur.spanId} is its own ancestor (a cycle); it is put under the run` });
        break;
      }
      if (roleOf(cur)) {
        found = cur;
        break;
      }
      path.push(cur.spanId);
      onPath.add(cur.spanId);
      cur = cur.parentSpanId ? byId.get(cur.parentSpanId) : undefined;
    }
    for (const id of path) keptAncestor.set(id, found);
    return found;
  };
  const kept = spans.filter((s) => roleOf(s));
  for (const s of spans) if (!roleOf(s)) notes.push({ pointer: s.pointer, message: `span "${s.name}" is not a GenAI agent, model or tool span (${GEN_AI.operation} ${JSON.stringify(s.attributes[GEN_AI.operation] ?? null)}); its children are kept under its parent` });
  const parent = new Map<OtlpSpan, OtlpSpan | undefined>();
  for (const s of kept) {
    keptAncestor.set(s.spanId, s);
    if (s.parentSpanId && !byId.has(s.parentSpanId)) notes.push({ pointer: `${s.pointer}/parentSpanId`, message: `parent span ${s.parentSpanId} is not in the file; the span is put under the run` });
  }
  for (const s of kept) {
    const up = s.parentSpanId ? byId.get(s.parentSpanId) : undefined;
    parent.set(s, up ? (resolve(up) ?? undefined) : undefined);
  }
  // A cycle among kept spans: none of them is reached from the top; each is put under the run.
  const children = new Map<OtlpSpan | undefined, OtlpSpan[]>();
  for (const s of kept) push(children, parent.get(s), s);
  const reached = new Set<OtlpSpan>();
  const stack = [...(children.get(undefined) ?? [])];
  while (stack.length) {
    const s = stack.pop() as OtlpSpan;
    reached.add(s);
    for (const c of children.get(s) ?? []) stack.push(c);
  }
  for (const s of kept) {
    if (reached.has(s)) continue;
    notes.push({ pointer: `${s.pointer}/parentSpanId`, message: `span ${s.spanId} is its own ancestor (a cycle); it is put under the run` });
    parent.set(s, undefined);
  }
  return { kept, parent };
}

function statusOf(s: OtlpSpan): NodeStatus {
  const own = s.attributes[STEPWISE.nodeStatus];
  if (typeof own === 'string' && (STATUSES as string[]).includes(own)) return own as NodeStatus;
  return s.statusCode === 2 ? 'error' : 'completed';
}

function usageOf(s: OtlpSpan): ExecNode['usage'] {
  const input = num(s.attributes[GEN_AI.inputTokens]);
  const output = num(s.attributes[GEN_AI.outputTokens]);
  if (input === undefined && output === undefined) return undefined;
  const u: NonNullable<ExecNode['usage']> = { inputTokens: input ?? 0, outputTokens: output ?? 0 };
  const cacheRead = num(s.attributes[GEN_AI.cacheReadTokens]);
  const cacheWrite = num(s.attributes[GEN_AI.cacheWriteTokens]);
  const reasoning = num(s.attributes[STEPWISE.reasoningTokens]);
  if (cacheRead !== undefined) u.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) u.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) u.reasoningTokens = reasoning;
  return u;
}

const modelOfSpan = (s: OtlpSpan) => ({ provider: providerIdOf(str(s.attributes[GEN_AI.provider]) ?? 'imported'), id: str(s.attributes[GEN_AI.responseModel]) ?? str(s.attributes[GEN_AI.requestModel]) ?? 'unknown' });

/** A model call's output from its `gen_ai.output.messages`. */
function llmOutput(s: OtlpSpan, notes: ThreadProblem[]): LlmOutput | undefined {
  const raw = jsonAttr(s.attributes[GEN_AI.outputMessages]);
  if (raw === undefined) return undefined;
  const read = fromGenAiMessages(raw, `${s.pointer}/attributes/${GEN_AI.outputMessages}`, (i) => `out${i}`, notes);
  const m = read.messages.find((x) => x.role === 'assistant');
  if (!m || m.role !== 'assistant') return { text: '' };
  const out: LlmOutput = { text: m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('') };
  const thinking = m.content.flatMap((p) => (p.type === 'thinking' ? [p.thinking] : [])).join('');
  if (thinking) out.thinking = thinking;
  if (m.toolCalls?.length) out.toolCalls = m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, ...(c.rawArguments ? { rawArguments: c.rawArguments } : {}) }));
  const own = str(s.attributes[STEPWISE.stopReason]);
  const first = Array.isArray(raw) && isObj(raw[0]) ? stopReasonOf(raw[0].finish_reason) : undefined;
  const stop = own ?? first;
  if (stop) out.stopReason = stop;
  return out;
}

/** The scripted provider's events for `out`, so the replay provider plays the call back (agent-runner/providers/replay.ts). */
function scriptedEvents(out: LlmOutput | undefined): { t: number; data: unknown }[] {
  if (!out) return [];
  const events: { t: number; data: unknown }[] = [];
  if (out.thinking) events.push({ t: 0, data: { kind: 'thinking', delta: out.thinking } });
  if (out.text) events.push({ t: 0, data: { kind: 'text', delta: out.text } });
  (out.toolCalls ?? []).forEach((c, index) => {
    events.push({ t: 0, data: { kind: 'tool_start', index, id: c.id, name: c.name } });
    events.push({ t: 0, data: { kind: 'tool_args', index, delta: c.rawArguments ?? JSON.stringify(c.arguments) } });
  });
  return events;
}

interface TraceRun {
  record: RunRecord;
  ref: RunRef;
  /** The model call whose conversation the thread takes, when this trace has one. */
  lastChat?: OtlpSpan;
  firstChat?: OtlpSpan;
  toolResults: Map<string, unknown>;
}

function runOfTrace(spans: OtlpSpan[], threadId: string, usedIds: Set<string>, notes: ThreadProblem[]): TraceRun {
  const { kept, parent } = treeOf(spans, notes);
  const tops = kept.filter((s) => parent.get(s) === undefined);
  const rootSpan = tops.length === 1 && roleOf(tops[0]) === 'agent' ? tops[0] : undefined;
  const own = str(rootSpan?.attributes[STEPWISE.runId]);
  let runId = own && SAFE_ID.test(own) && !usedIds.has(own) ? own : `otel-${spans[0].traceId}`;
  while (usedIds.has(runId)) runId = `${runId}-2`;
  usedIds.add(runId);
  let t0 = spans[0].startMs;
  let t1 = spans[0].endMs;
  for (const s of spans) {
    if (s.startMs < t0) t0 = s.startMs;
    if (s.endMs > t1) t1 = s.endMs;
  }
  const nodes: ExecNode[] = [];
  const idOf = new Map<OtlpSpan, string>();
  const rootId = `${runId}.1`;
  const mode = str(rootSpan?.attributes[STEPWISE.runMode]);
  const rootNode: ExecNode = rootSpan
    ? { id: rootId, runId, kind: 'run', name: str(rootSpan.attributes[STEPWISE.nodeName]) ?? 'imported', status: statusOf(rootSpan), startedAt: rootSpan.startMs, endedAt: rootSpan.endMs, durationMs: rootSpan.endMs - rootSpan.startMs, attrs: { importedFrom: F } }
    : { id: rootId, runId, kind: 'run', name: 'imported', status: kept.some((s) => statusOf(s) === 'error') ? 'error' : 'completed', startedAt: t0, endedAt: t1, durationMs: t1 - t0, attrs: { importedFrom: F } };
  if (rootSpan) {
    idOf.set(rootSpan, rootId);
    const u = usageOf(rootSpan);
    if (u) rootNode.usage = u;
  }
  nodes.push(rootNode);
  const records: RunRecord['records'] = [];
  const toolResults = new Map<string, unknown>();
  let firstChat: OtlpSpan | undefined;
  let lastChat: OtlpSpan | undefined;
  // Parents before children: a walk from the top, children in start order.
  const children = new Map<OtlpSpan | undefined, OtlpSpan[]>();
  for (const s of kept) if (s !== rootSpan) push(children, parent.get(s) === rootSpan ? undefined : parent.get(s), s);
  for (const list of children.values()) list.sort((a, b) => a.startMs - b.startMs);
  const stack = [...(children.get(undefined) ?? [])].reverse();
  while (stack.length) {
    const s = stack.pop() as OtlpSpan;
    const role = roleOf(s) as Role;
    const id = `${runId}.${nodes.length + 1}`;
    idOf.set(s, id);
    const p = parent.get(s);
    const status = statusOf(s);
    // A node still waiting (a tool call awaiting input) has no end; its span ended with the export.
    const ended = isTerminal(status) ? { endedAt: s.endMs, durationMs: s.endMs - s.startMs } : {};
    const node: ExecNode = { id, runId, parentId: p && idOf.has(p) ? idOf.get(p) : rootId, kind: role === 'agent' ? 'agent' : role === 'llm' ? (s.attributes[STEPWISE.nodeKind] === 'sampling' ? 'sampling' : 'llm') : 'tool', name: '', status, startedAt: s.startMs, ...ended };
    if (node.status === 'error') node.error = { message: s.statusMessage ?? 'the span ended with an error', ...(str(s.attributes[GEN_AI.errorType]) ? { code: str(s.attributes[GEN_AI.errorType]) } : {}) };
    const u = usageOf(s);
    if (u) node.usage = u;
    if (role === 'llm') {
      const m = modelOfSpan(s);
      node.name = str(s.attributes[STEPWISE.nodeName]) ?? m.id;
      node.model = `${m.provider}/${m.id}`;
      const input = jsonAttr(s.attributes[GEN_AI.inputMessages]);
      const system = systemText(jsonAttr(s.attributes[GEN_AI.systemInstructions]));
      node.input = { ...(Array.isArray(input) ? { messageCount: input.filter((x) => isObj(x) && x.role !== 'tool' && x.role !== 'system').length } : {}), ...(system ? { systemPrompt: system } : {}) };
      const out = llmOutput(s, notes);
      if (out) node.output = out;
      if (node.kind === 'llm') {
        records.push({ runId, nodeId: id, api: 'scripted', request: { importedFrom: F, messages: input ?? null, ...(system ? { system } : {}) }, events: scriptedEvents(out) });
        if (Array.isArray(input)) {
          firstChat ??= s;
          if (!lastChat || s.endMs >= lastChat.endMs) lastChat = s;
        }
      }
    } else if (role === 'tool') {
      node.name = str(s.attributes[GEN_AI.toolName]) ?? (s.name.replace(/^execute_tool\s+/, '') || 'tool');
      const callId = str(s.attributes[GEN_AI.toolCallId]);
      if (callId) node.toolCallId = callId;
      const args = jsonAttr(s.attributes[GEN_AI.toolArguments]);
      if (args !== undefined) node.input = args;
      const result = jsonAttr(s.attributes[GEN_AI.toolResult]);
      if (result !== undefined) {
        node.output = toolOutputOf(result);
        if (callId) toolResults.set(callId, result);
      }
    } else node.name = str(s.attributes[STEPWISE.nodeName]) ?? str(s.attributes[GEN_AI.agentName]) ?? s.name;
    nodes.push(node);
    for (const c of [...(children.get(s) ?? [])].reverse()) stack.push(c);
  }
  const llmCount = nodes.filter((n) => n.kind === 'llm').length;
  const record: RunRecord = { runId, threadId, mode: mode === 'step' || mode === 'react' ? mode : llmCount > 1 ? 'react' : 'step', status: rootNode.status, startedAt: rootNode.startedAt, endedAt: rootNode.endedAt, nodes, records };
  const ref: RunRef = { id: runId, startedAt: record.startedAt, endedAt: record.endedAt, durationMs: rootNode.durationMs, status: record.status, mode: record.mode };
  return { record, ref, lastChat, firstChat, toolResults };
}

/**
 * Converts an OTLP/JSON traces document into a thread and its runs. Throws ImportError when
 * nothing in it is a GenAI span; everything else that cannot be kept is in `notes`.
 */
export function importOtlpGenAi(json: unknown, opts: ImportOptions = {}): ImportResult {
  const notes: ThreadProblem[] = opts.notes ?? [];
  const spans = readOtlpSpans(json, notes);
  if (!spans) fail(F, '/resourceSpans', 'expected an array of resource spans');
  if (!spans.some((s) => roleOf(s))) fail(F, '/resourceSpans', `no GenAI span (${GEN_AI.operation} invoke_agent, chat or execute_tool) among ${spans.length} span(s)${notes.length ? `; ${notes[0].pointer}: ${notes[0].message}` : ''}`);
  const byTrace = new Map<string, OtlpSpan[]>();
  for (const s of spans) push(byTrace, s.traceId, s);
  const threadId = stableId(`otlp:${[...byTrace.keys()].join(',')}`);
  const used = new Set<string>();
  const runs = [...byTrace.values()].filter((list) => list.some((s) => roleOf(s))).map((list) => runOfTrace(list, threadId, used, notes));
  runs.sort((a, b) => a.record.startedAt - b.record.startedAt);
  const last = [...runs].reverse().find((r) => r.lastChat);
  const chat = last?.lastChat;
  let messages: Message[] = [];
  let system = '';
  if (chat) {
    const at = `${chat.pointer}/attributes/${GEN_AI.inputMessages}`;
    const ids = (prefix: string) => (i: number) => stableId(`${threadId}/${chat.spanId}/${prefix}${i}`);
    const input = fromGenAiMessages(jsonAttr(chat.attributes[GEN_AI.inputMessages]), at, ids('in'), notes);
    const output = fromGenAiMessages(jsonAttr(chat.attributes[GEN_AI.outputMessages]) ?? [], `${chat.pointer}/attributes/${GEN_AI.outputMessages}`, ids('out'), notes);
    messages = [...input.messages, ...output.messages];
    system = systemText(jsonAttr(chat.attributes[GEN_AI.systemInstructions])) || input.system.join('\n');
    // Tool results the last call's conversation does not hold yet (its own calls' results) come from the tool spans.
    for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) if (!c.output && last.toolResults.has(c.id)) c.output = toolOutputOf(last.toolResults.get(c.id));
    const base = messages.slice(0, input.messages.length > 0 && last.firstChat ? countOf(last.firstChat) : 0);
    last.record.baseMessageIds = base.map((m) => m.id);
    last.record.messages = messages.slice(base.length) as unknown[];
  }
  const anySpan = chat ?? spans.find((s) => roleOf(s)) as OtlpSpan;
  const model = modelOfSpan(anySpan);
  const params: Record<string, unknown> = {};
  for (const [k, attr] of [['temperature', GEN_AI.temperature], ['maxTokens', GEN_AI.maxTokens], ['topP', GEN_AI.topP]] as const) {
    const v = num(spans.find((s) => num(s.attributes[attr]) !== undefined)?.attributes[attr]);
    if (v !== undefined) params[k] = v;
  }
  const defs = spans.map((s) => jsonAttr(s.attributes[GEN_AI.toolDefinitions])).find((d) => Array.isArray(d)) as unknown[] | undefined;
  const tools: FunctionTool[] = [];
  (defs ?? []).forEach((d, i) => {
    if (!isObj(d) || typeof d.name !== 'string' || !d.name) return void notes.push({ pointer: `(${GEN_AI.toolDefinitions})/${i}`, message: 'a tool definition without a name is not kept' });
    if (tools.some((t) => t.name === d.name)) return;
    tools.push({ type: 'function', name: d.name, ...(typeof d.description === 'string' ? { description: d.description } : {}), parameters: isObj(d.parameters) ? (d.parameters as FunctionTool['parameters']) : { type: 'object', properties: {} } } as FunctionTool);
  });
  const title = str(anySpan.attributes[STEPWISE.threadTitle]) ?? str(spans.find((s) => str(s.attributes[GEN_AI.agentName]))?.attributes[GEN_AI.agentName]);
  const thread = finishThread(F, {
    title: opts.title ?? title,
    fallbackTitle: 'Imported trace',
    model: { provider: model.provider, id: model.id, params: params as ModelConfig['params'] },
    systemPrompt: system,
    tools,
    messages,
    more: { runRefs: runs.map((r) => r.ref) },
    id: threadId,
  });
  return { format: F, thread, runs: runs.map((r) => r.record), notes };
}

/** How many thread messages a model call's input holds (tool and system messages fold into others). */
function countOf(s: OtlpSpan): number {
  const input = jsonAttr(s.attributes[GEN_AI.inputMessages]);
  return Array.isArray(input) ? input.filter((x) => isObj(x) && x.role !== 'tool' && x.role !== 'system').length : 0;
}
