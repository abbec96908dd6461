/**
 * What a run that ended without its own `run_result` adds to its thread — its runner process
 * was killed, or the host died while it ran — rebuilt from its execution tree (live at close,
 * or the last checkpoint of its run file), so that such a run leaves the thread as a cut
 * provider stream does (agent-runner/loop/agent-loop.ts): every reply the run got, the last
 * one partial and marked like a cut reply (`stopReason: 'error'` and an `errorMessage`), its
 * tool calls never run by the run (a call whose argument text is incomplete keeps it in
 * `rawArguments` with empty `arguments`, so a later tool step refuses it), and each tool
 * result that was complete.
 */
import { randomUUID } from 'node:crypto';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { TimingSchema, UsageSchema, type ExecNode, type LlmOutput } from '../../../shared/protocol/nodes';
import { nodeDurationMs } from '../../../shared/protocol/duration';
import type { ToolOutputPatch } from '../../../shared/protocol/envelopes';
import type { RunRecord } from '../../../shared/protocol/host-api';
import { ServerToolPartSchema, ToolOutputSchema, type AssistantMessage, type ToolCall, type ToolOutput } from '../../../shared/thread/messages';
import { parseArguments } from '../../../shared/thread/import/common';

const isToolOutput = TypeCompiler.Compile(ToolOutputSchema);
const isUsage = TypeCompiler.Compile(UsageSchema);
const isTiming = TypeCompiler.Compile(TimingSchema);
const isServerToolPart = TypeCompiler.Compile(ServerToolPartSchema);

/** What the run adds to its thread: appended messages, and results of tool calls already there (tool steps). */
export interface SalvagedResult {
  messages: AssistantMessage[];
  toolOutputs: ToolOutputPatch[];
}

/** A tool node's result when the tool finished (completed, or an error result), else undefined. */
function finishedOutput(node: ExecNode | undefined): ToolOutput | undefined {
  if (!node || (node.status !== 'completed' && node.status !== 'error')) return undefined;
  return isToolOutput.Check(node.output) ? node.output : undefined;
}

/** A tool call of an LLM node's (possibly partial) output as the thread stores it, or undefined when it has no id. */
function toolCallOf(raw: unknown): ToolCall | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const c = raw as { id?: unknown; name?: unknown; arguments?: unknown; rawArguments?: unknown };
  if (typeof c.id !== 'string' || !c.id) return undefined;
  // The raw text decides, as when the stream assembles the call; else the parsed arguments.
  const args = typeof c.rawArguments === 'string' ? parseArguments(c.rawArguments) : parseArguments(c.arguments);
  return { id: c.id, name: typeof c.name === 'string' ? c.name : '', ...args };
}

/**
 * The assistant message of one top-level LLM node, with the results of its tool nodes that
 * finished; undefined when the reply has neither text, thinking, provider-run tool blocks nor tool calls (the runner adds
 * no message then either). `cause` says why an unfinished reply stopped.
 */
function messageOf(node: ExecNode, tools: ExecNode[], cause: string): AssistantMessage | undefined {
  const out = (node.output && typeof node.output === 'object' ? node.output : {}) as Partial<LlmOutput>;
  const content: AssistantMessage['content'] = [];
  if (typeof out.thinking === 'string' && out.thinking) content.push({ type: 'thinking', thinking: out.thinking });
  // Provider-run tool blocks come before the reply's text, as they do in a stream.
  for (const block of Array.isArray(out.serverTools) ? out.serverTools : []) {
    const part = { type: 'server_tool' as const, block };
    if (isServerToolPart.Check(part)) content.push(part);
  }
  if (typeof out.text === 'string' && out.text) content.push({ type: 'text', text: out.text });
  const calls = (Array.isArray(out.toolCalls) ? out.toolCalls : []).map(toolCallOf).filter((c): c is ToolCall => !!c);
  if (!content.length && !calls.length) return undefined;
  for (const call of calls) {
    const output = finishedOutput(tools.find((t) => t.toolCallId === call.id));
    if (output) call.output = output;
  }
  const msg: AssistantMessage = { id: randomUUID(), role: 'assistant', content };
  if (calls.length) msg.toolCalls = calls;
  // A run file may have been edited by hand: only fields of the right shape are taken.
  if (typeof node.model === 'string' && node.model) msg.model = node.model;
  if (isUsage.Check(node.usage)) msg.usage = node.usage;
  if (isTiming.Check(node.timing)) msg.timing = node.timing;
  else {
    const durationMs = nodeDurationMs(node);
    if (Number.isFinite(durationMs)) msg.timing = { durationMs };
  }
  if (node.status === 'completed') {
    msg.stopReason = typeof out.stopReason === 'string' ? out.stopReason : 'stop';
  } else if (node.status === 'cancelled') {
    msg.stopReason = 'cancelled';
  } else {
    msg.stopReason = 'error';
    msg.errorMessage = node.status === 'error' && typeof node.error?.message === 'string' ? node.error.message : `The reply was interrupted: ${cause} before it finished. The partial reply is kept; try again.`;
  }
  return msg;
}

/**
 * Rebuild what a run without a `run_result` adds to its thread from its nodes. `cause` names
 * what stopped it ("its runner process stopped", "Stepwise stopped"). An LLM step or ReAct run
 * gives one assistant message per LLM call made directly under the run node, in order; a tool
 * step gives the results of the tool calls that finished, for the thread's last message when
 * the run started (`baseMessageIds`). Nested calls (sampling, agent tools) add nothing, as in a
 * finished run.
 */
export function salvageResult(rec: Pick<RunRecord, 'mode' | 'nodes' | 'baseMessageIds'>, cause: string): SalvagedResult {
  const nodes = rec.nodes ?? [];
  const root = nodes.find((n) => !n.parentId);
  const empty: SalvagedResult = { messages: [], toolOutputs: [] };
  if (!root) return empty;
  if (rec.mode === 'tool') {
    const messageId = rec.baseMessageIds?.at(-1);
    if (!messageId) return empty;
    const toolOutputs: ToolOutputPatch[] = [];
    for (const n of nodes) {
      const output = n.parentId === root.id && n.kind === 'tool' && n.toolCallId ? finishedOutput(n) : undefined;
      if (output) toolOutputs.push({ messageId, toolCallId: n.toolCallId!, output });
    }
    return { messages: [], toolOutputs };
  }
  const messages: AssistantMessage[] = [];
  for (const n of nodes) {
    if (n.parentId !== root.id || n.kind !== 'llm') continue;
    const msg = messageOf(n, nodes.filter((t) => t.parentId === n.id && t.kind === 'tool'), cause);
    if (msg) messages.push(msg);
  }
  return { messages, toolOutputs: [] };
}
