/**
 * A run as an OpenTelemetry trace with the GenAI semantic conventions (docs/architecture.md#traces):
 * one trace per run; an `invoke_agent` span for the run (and for each nested agent), a `chat`
 * span (kind CLIENT) per model call and MCP sampling request, an `execute_tool` span per tool
 * call, nested as in the execution tree, with start and end times from the run record and
 * errors as span status (ERROR, message) plus `error.type`. Message content goes on the opt-in
 * content attributes (`gen_ai.input.messages`, `gen_ai.output.messages`,
 * `gen_ai.system_instructions`, `gen_ai.tool.definitions`, `gen_ai.tool.call.arguments` /
 * `.result`) as JSON text. Spans are made by the official SDK (`@opentelemetry/sdk-trace`) and
 * written as OTLP/JSON by `@opentelemetry/otlp-transformer`'s serializer, the one the OTLP/HTTP
 * JSON exporter uses. Trace and span ids are derived from the run and node ids (SHA-256), so the
 * same run always gives the same ids.
 */
import { createHash } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type IdGenerator, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { ExecNode, LlmOutput } from '../../../shared/protocol/nodes';
import type { Message } from '../../../shared/thread/messages';
import type { Thread } from '../../../shared/thread/schema';
import type { Tool } from '../../../shared/thread/tools';
import { GEN_AI, STEPWISE, finishReason, providerName, toGenAiMessages, toolOutputOf, toolResponse, type GenAiMessage, type GenAiPart } from '../../../shared/traces/genai';
import { walkDepthFirst } from '../../../shared/depth-first';

/** The instrumentation scope the spans carry. */
export const SCOPE = { name: 'stepwise', version: '0.1.0' } as const;

const hex = (seed: string, bytes: number) => createHash('sha256').update(seed).digest('hex').slice(0, bytes * 2);

/** Ids the tracer asks for next: set before each span is started. */
class SeededIds implements IdGenerator {
  traceSeed = '';
  spanSeed = '';
  generateTraceId = () => hex(`trace:${this.traceSeed}`, 16);
  generateSpanId = () => hex(`span:${this.spanSeed}`, 8);
}

/** The messages a run's calls saw: the thread's messages when the run started, then what the run added. */
export function runConversation(thread: Thread, run: RunRecord): Message[] {
  const added = (run.messages ?? []) as Message[];
  if (!run.baseMessageIds) return added.length ? added : thread.context.messages;
  const byId = new Map(thread.context.messages.map((m) => [m.id, m]));
  const addedIds = new Set(added.map((m) => m.id));
  const base = run.baseMessageIds.map((id) => byId.get(id)).filter((m): m is Message => !!m && !addedIds.has(m.id));
  return [...base, ...added];
}

function toolDefinitions(tools: readonly Tool[]): unknown[] {
  return tools.map((t) => {
    const params = 'parameters' in t ? t.parameters : 'inputSchema' in t ? t.inputSchema : undefined;
    return { type: 'function', name: t.name, ...('description' in t && t.description ? { description: t.description } : {}), ...(params ? { parameters: params } : {}) };
  });
}

function outputMessage(out: LlmOutput | undefined): GenAiMessage[] {
  if (!out) return [];
  const parts: GenAiPart[] = [];
  if (out.thinking) parts.push({ type: 'reasoning', content: out.thinking });
  if (out.text) parts.push({ type: 'text', content: out.text });
  for (const c of out.toolCalls ?? []) parts.push({ type: 'tool_call', id: c.id, name: c.name, arguments: c.arguments });
  return [{ role: 'assistant', parts, finish_reason: finishReason(out.stopReason) }];
}

const json = (v: unknown) => JSON.stringify(v);

/** `provider/model` of a node or the thread: the provider part and the model part. */
function splitModel(model: string | undefined, thread: Thread): { provider: string; model: string } {
  if (model && model.includes('/')) {
    const i = model.indexOf('/');
    return { provider: model.slice(0, i), model: model.slice(i + 1) };
  }
  return { provider: thread.model.provider, model: model ?? thread.model.id };
}

function usageAttrs(n: ExecNode): Attributes {
  const u = n.usage;
  if (!u) return {};
  return {
    [GEN_AI.inputTokens]: u.inputTokens,
    [GEN_AI.outputTokens]: u.outputTokens,
    ...(u.cacheReadTokens !== undefined ? { [GEN_AI.cacheReadTokens]: u.cacheReadTokens } : {}),
    ...(u.cacheWriteTokens !== undefined ? { [GEN_AI.cacheWriteTokens]: u.cacheWriteTokens } : {}),
    ...(u.reasoningTokens !== undefined ? { [STEPWISE.reasoningTokens]: u.reasoningTokens } : {}),
    ...(u.costUsd !== undefined ? { [STEPWISE.costUsd]: u.costUsd } : {}),
  };
}

function requestParams(thread: Thread): Attributes {
  const p = (thread.model.params ?? {}) as Record<string, unknown>;
  const a: Attributes = {};
  if (typeof p.temperature === 'number') a[GEN_AI.temperature] = p.temperature;
  if (typeof p.maxTokens === 'number') a[GEN_AI.maxTokens] = p.maxTokens;
  if (typeof p.topP === 'number') a[GEN_AI.topP] = p.topP;
  return a;
}

/** The span's name, kind and attributes for one node. */
function describe(n: ExecNode, run: RunRecord, thread: Thread, conversation: Message[]): { name: string; kind: SpanKind; attrs: Attributes } {
  const own: Attributes = { [STEPWISE.nodeId]: n.id, [STEPWISE.nodeKind]: n.kind, [STEPWISE.nodeName]: n.name, [STEPWISE.nodeStatus]: n.status };
  if (n.kind === 'run' || n.kind === 'agent') {
    const { provider, model } = splitModel(n.model, thread);
    const agent = n.kind === 'run' ? thread.title : n.name;
    return {
      name: `invoke_agent ${agent}`,
      kind: SpanKind.INTERNAL,
      attrs: {
        ...own,
        [GEN_AI.operation]: 'invoke_agent',
        [GEN_AI.agentName]: agent,
        [GEN_AI.provider]: providerName(provider),
        [GEN_AI.requestModel]: model,
        ...(n.kind === 'run'
          ? {
              [GEN_AI.agentId]: thread.id,
              [GEN_AI.conversationId]: thread.id,
              [STEPWISE.runId]: run.runId,
              [STEPWISE.runMode]: run.mode,
              [STEPWISE.threadTitle]: thread.title,
              ...requestParams(thread),
              ...(thread.context.systemPrompt ? { [GEN_AI.systemInstructions]: json([{ type: 'text', content: thread.context.systemPrompt }]) } : {}),
              ...(thread.context.tools.length ? { [GEN_AI.toolDefinitions]: json(toolDefinitions(thread.context.tools)) } : {}),
            }
          : {}),
        ...usageAttrs(n),
      },
    };
  }
  if (n.kind === 'llm' || n.kind === 'sampling') {
    const { provider, model } = splitModel(n.model, thread);
    const input = (n.input ?? {}) as { messageCount?: number; systemPrompt?: string; messages?: unknown };
    const out = n.output as LlmOutput | undefined;
    const sent = n.kind === 'llm' && typeof input.messageCount === 'number' ? toGenAiMessages(conversation.slice(0, input.messageCount)) : Array.isArray(input.messages) ? (input.messages as GenAiMessage[]) : [];
    const system = typeof input.systemPrompt === 'string' ? input.systemPrompt : n.kind === 'llm' ? thread.context.systemPrompt : '';
    return {
      name: `chat ${model}`,
      kind: SpanKind.CLIENT,
      attrs: {
        ...own,
        [GEN_AI.operation]: 'chat',
        [GEN_AI.provider]: providerName(provider),
        [GEN_AI.requestModel]: model,
        ...(n.status === 'completed' ? { [GEN_AI.responseModel]: model } : {}),
        ...(out ? { [GEN_AI.finishReasons]: [finishReason(out.stopReason)] } : {}),
        ...(out?.stopReason ? { [STEPWISE.stopReason]: out.stopReason } : {}),
        ...usageAttrs(n),
        ...(system ? { [GEN_AI.systemInstructions]: json([{ type: 'text', content: system }]) } : {}),
        [GEN_AI.inputMessages]: json(sent),
        ...(out ? { [GEN_AI.outputMessages]: json(outputMessage(out)) } : {}),
      },
    };
  }
  const tool = thread.context.tools.find((t) => t.name === n.name);
  const out = n.output as Parameters<typeof toolResponse>[0] | undefined;
  return {
    name: `execute_tool ${n.name}`,
    kind: SpanKind.INTERNAL,
    attrs: {
      ...own,
      [GEN_AI.operation]: 'execute_tool',
      [GEN_AI.toolName]: n.name,
      [GEN_AI.toolType]: tool?.type === 'mcp' ? 'extension' : 'function',
      ...(n.toolCallId ? { [GEN_AI.toolCallId]: n.toolCallId } : {}),
      ...(tool && 'description' in tool && tool.description ? { [GEN_AI.toolDescription]: tool.description } : {}),
      ...(n.input !== undefined ? { [GEN_AI.toolArguments]: json(n.input) } : {}),
      ...(out && Array.isArray(out.content) ? { [GEN_AI.toolResult]: json(toolResponse(toolOutputOf(out))) } : {}),
    },
  };
}

function endOf(n: ExecNode, run: RunRecord): number {
  return n.endedAt ?? run.endedAt ?? run.lastEventAt ?? n.startedAt;
}

function finish(span: Span, n: ExecNode, run: RunRecord): void {
  if (n.status === 'error') {
    span.setAttribute(GEN_AI.errorType, n.error?.code ?? '_OTHER');
    span.setStatus({ code: SpanStatusCode.ERROR, message: n.error?.message ?? 'error' });
  } else if (n.status === 'completed') span.setStatus({ code: SpanStatusCode.OK });
  span.end(endOf(n, run));
}

/**
 * The spans of `runs` (records of `thread`), one trace each, parents before children.
 * Nodes are walked without recursion (shared/depth-first.ts), so a deep tree does not overflow.
 */
export async function runSpans(thread: Thread, runs: readonly RunRecord[]): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const ids = new SeededIds();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'stepwise', [STEPWISE.threadTitle]: thread.title, [GEN_AI.conversationId]: thread.id }),
    idGenerator: ids,
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    spanLimits: { attributeCountLimit: 256 },
  });
  const tracer = provider.getTracer(SCOPE.name, SCOPE.version);
  for (const run of runs) {
    ids.traceSeed = run.runId;
    const conversation = runConversation(thread, run);
    const children = new Map<string | undefined, ExecNode[]>();
    const known = new Set(run.nodes.map((n) => n.id));
    for (const n of run.nodes) {
      const parent = n.parentId && known.has(n.parentId) ? n.parentId : undefined;
      const list = children.get(parent) ?? [];
      list.push(n);
      children.set(parent, list);
    }
    const spans = new Map<string, Span>();
    const open: [ExecNode, Span][] = [];
    walkDepthFirst(children.get(undefined) ?? [], (x) => children.get(x.id), (n) => {
      const d = describe(n, run, thread, conversation);
      ids.spanSeed = `${run.runId}/${n.id}`;
      const parent = n.parentId ? spans.get(n.parentId) : undefined;
      const ctx = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
      const span = tracer.startSpan(d.name, { kind: d.kind, startTime: n.startedAt, attributes: d.attrs }, ctx);
      spans.set(n.id, span);
      open.push([n, span]);
    });
    for (const [n, span] of open) finish(span, n, run);
  }
  await provider.forceFlush();
  const out = exporter.getFinishedSpans();
  await provider.shutdown();
  return out;
}

/**
 * `runs` of `thread` as an OTLP/JSON export request (`{ resourceSpans: [...] }`, the body the
 * OTLP/HTTP JSON exporter posts to `/v1/traces`): ids in hex, times in nanoseconds.
 */
export async function runsToOtlpJson(thread: Thread, runs: readonly RunRecord[]): Promise<{ resourceSpans: unknown[] }> {
  const bytes = JsonTraceSerializer.serializeRequest(await runSpans(thread, runs));
  if (!bytes) throw new Error('the OTLP serializer returned nothing');
  return JSON.parse(new TextDecoder().decode(bytes)) as { resourceSpans: unknown[] };
}
