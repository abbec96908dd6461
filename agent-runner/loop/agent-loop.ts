/**
 * The agent loop (docs/architecture.md#the-execution-tree): step mode (one LLM call; its tool calls wait for the user),
 * ReAct mode (execute tools and continue up to a turn cap, stopping at a tool that needs
 * approval) and tool step (execute given pending tool calls in parallel, then stop).
 */
import type { AssistantMessage, Message, ToolCall, ToolOutput } from '../../shared/thread/messages';
import type { ModelConfig } from '../../shared/thread/model-config';
import type { Thread } from '../../shared/thread/schema';
import type { Tool } from '../../shared/thread/tools';
import type { NodeError, NodeStatus, Usage } from '../../shared/protocol/nodes';
import type { ToolOutputPatch } from '../../shared/protocol/envelopes';
import type { RunMode } from '../../shared/thread/schema';
import { DEFAULT_MAX_TURNS } from '../../shared/thread/defaults';
import { stopNote } from '../../shared/protocol/stop-reason';
import { needsApproval as mcpNeedsApproval } from '../../shared/protocol/mcp';
import { BUILTIN_TOOLS, builtinNameOf } from '../../shared/thread/builtin-tools';
import { toAssistantMessage, type LlmCallResult, type Provider } from '../providers/types';
import type { ToolExecutor, NestedLlmCall } from '../tools/types';
import type { RunTree } from './tree';
import { runLlmNode } from './llm-node';
import { pendingToolCalls, toolSpecs } from './messages';
import { runProblem } from '../../shared/thread/tool-calls';
import { makeToolCallIdsUnique, toolCallIdsOf } from '../../shared/thread/ids';
import { executeToolCall, type ToolHost } from './tool-call';
import type { RecordedCalls } from './recorded';

/** Agent tools may nest agents; this bounds runaway recursion. */
const MAX_AGENT_DEPTH = 5;

export interface LoopDeps {
  tree: RunTree;
  signal: AbortSignal;
  providerFor(model: ModelConfig): Provider;
  executors: ToolExecutor[];
  /** Ids of the configured providers. */
  providerIds: string[];
  /** Loads an agent tool's thread by its workspace-relative path. */
  loadThread(threadPath: string): Promise<Thread>;
  waitForInput(nodeId: string): Promise<unknown>;
  /** A new message id (`newId('msg')` of shared/thread/ids.ts in a run). */
  newId(): string;
  /** Model calls and tool results reused from an earlier run (time travel, replay). */
  recorded?: RecordedCalls;
  /** `usage` of a call to `model` with its cost added when the model's price is known. */
  withCost?(model: ModelConfig, usage: Usage): Usage;
  /** What the approval card of a held call shows (`attrs.preview`: a diff, a command), if anything. */
  previewFor?(tool: Tool, call: ToolCall, thread: Thread): Promise<Record<string, unknown> | undefined>;
}

export interface LoopResult {
  status: NodeStatus;
  messages: Message[];
  toolOutputs: ToolOutputPatch[];
  error?: NodeError;
  /** Final assistant text (for agent tools). */
  finalText: string;
}

/**
 * True when ReAct mode must stop at this tool and wait for the user: tools marked so, function
 * tools (their result is typed by the user), and MCP tools by their annotations (see
 * shared/protocol/mcp.ts needsApproval: destructiveHint stops unless the thread allows it), and
 * the built-in tools that change files, run commands or reach the network unless the thread's
 * `settings.allowTools` names them.
 */
export function needsApproval(tool: Tool | undefined, thread: Thread): boolean {
  if (!tool) return true;
  if (tool.type === 'mcp') return mcpNeedsApproval(tool, thread);
  if (tool.requiresApproval) return true;
  if (tool.type === 'builtin') {
    const name = builtinNameOf(tool);
    return !!name && BUILTIN_TOOLS[name].approval && !(thread.settings?.allowTools ?? []).includes(name);
  }
  return tool.type === 'function';
}

function textOf(r: LlmCallResult): string {
  return r.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

export class AgentLoop {
  constructor(
    private readonly deps: LoopDeps,
    private readonly thread: Thread,
    private readonly parentId: string,
    private readonly depth = 0,
  ) {}

  private toolHost(): ToolHost {
    const d = this.deps;
    return {
      tree: d.tree,
      thread: this.thread,
      signal: d.signal,
      executors: d.executors,
      waitForInput: d.waitForInput,
      providerIds: d.providerIds,
      nestedLlm: (parentId, call) => this.nestedLlm(parentId, call),
      nestedAgent: (parentId, threadPath, userText) => this.nestedAgent(parentId, threadPath, userText),
    };
  }

  /** Adds the cost of a call to `model` to its usage, when the run knows prices. */
  private costOf(model: ModelConfig): ((usage: Usage) => Usage) | undefined {
    const withCost = this.deps.withCost;
    return withCost ? (usage) => withCost(model, usage) : undefined;
  }

  private async nestedLlm(parentId: string, call: NestedLlmCall): Promise<LlmCallResult> {
    const model = call.model ?? this.thread.model;
    const withMax = call.maxTokens ? { ...model, params: { ...model.params, maxTokens: call.maxTokens } } : model;
    const { result } = await runLlmNode(this.deps.tree, this.deps.providerFor(withMax), this.deps.signal, {
      kind: call.kind,
      name: call.name,
      parentId,
      model: withMax,
      systemPrompt: call.systemPrompt,
      messages: call.messages,
      tools: [],
      withCost: this.costOf(withMax),
    });
    return result;
  }

  private async nestedAgent(parentId: string, threadPath: string, userText: string): Promise<{ text: string; isError: boolean }> {
    const { tree } = this.deps;
    const agentId = tree.open({ kind: 'agent', name: threadPath, parentId, input: { threadPath, input: userText } });
    if (this.depth + 1 > MAX_AGENT_DEPTH) {
      const message = `Agent tools nest more than ${MAX_AGENT_DEPTH} deep: stopped at ${threadPath}.`;
      tree.close(agentId, { status: 'error', error: { message } });
      return { text: message, isError: true };
    }
    let sub: Thread;
    try {
      sub = await this.deps.loadThread(threadPath);
    } catch (err) {
      const message = `Could not load the agent thread ${threadPath}: ${err instanceof Error ? err.message : String(err)}`;
      tree.close(agentId, { status: 'error', error: { message } });
      return { text: message, isError: true };
    }
    const user: Message = { id: this.deps.newId(), role: 'user', content: [{ type: 'text', text: userText }] };
    const nested: Thread = { ...sub, context: { ...sub.context, messages: [...sub.context.messages, user] } };
    const r = await new AgentLoop(this.deps, nested, agentId, this.depth + 1).run('react');
    const isError = r.status === 'error' || r.status === 'cancelled';
    const text = r.error ? r.error.message : r.finalText;
    tree.close(agentId, { status: r.status === 'awaiting_input' ? 'completed' : r.status, output: { text }, error: r.error });
    return { text, isError };
  }

  /** Runs the loop in `mode`. Never rejects. */
  async run(mode: RunMode, opts: { maxTurns?: number; toolCallIds?: string[] } = {}): Promise<LoopResult> {
    if (mode === 'tool') return this.toolStep(opts.toolCallIds);
    const messages = [...this.thread.context.messages];
    const added: Message[] = [];
    const fail = (message: string, code: string): LoopResult => ({ status: 'error', messages: [], toolOutputs: [], error: { message, code }, finalText: '' });
    const problem = runProblem(this.thread, mode);
    if (problem) return fail(problem.message, problem.code);
    const maxTurns = mode === 'step' ? 1 : Math.max(1, opts.maxTurns ?? this.thread.settings?.maxTurns ?? DEFAULT_MAX_TURNS);
    // Templates are rendered before the loop sees the thread (main/core/templates.ts; agent
    // threads in run.ts): every text is sent as it stands.
    const systemPrompt = this.thread.context.systemPrompt;
    const tools = toolSpecs(this.thread.context.tools);
    let finalText = '';
    // Tool call ids are unique across the thread (validate.ts, findDuplicates): a provider that
    // repeats one from an earlier turn gets its call renamed before anything names it.
    const takenCallIds = toolCallIdsOf(this.thread);
    for (let turn = 0; turn < maxTurns; turn++) {
      if (this.deps.signal.aborted) return { status: 'cancelled', messages: added, toolOutputs: [], finalText };
      const model = this.thread.model;
      // Only the run's own calls are reused; an agent tool's nested loop always runs live.
      const recorded = this.depth === 0 ? this.deps.recorded : undefined;
      const replayed = recorded?.call(turn);
      const messageId = this.deps.newId();
      const { nodeId, result, timing } = await runLlmNode(this.deps.tree, replayed ?? this.deps.providerFor(model), this.deps.signal, {
        kind: 'llm',
        name: model.id || model.provider,
        parentId: this.parentId,
        model,
        systemPrompt,
        messages,
        tools,
        messageId,
        ...(replayed ? { replayedFrom: recorded!.runId } : {}),
        withCost: this.costOf(model),
      });
      finalText = textOf(result);
      // A refusal is kept even when empty: its message carries the provider's explanation.
      const hasOutput = result.content.length > 0 || result.toolCalls.length > 0 || result.error?.code === 'refusal';
      const assistant: AssistantMessage = toAssistantMessage(messageId, result, `${model.provider}/${model.id}`, timing);
      makeToolCallIdsUnique(assistant.toolCalls ?? [], takenCallIds);
      if (hasOutput) {
        messages.push(assistant);
        added.push(assistant);
      }
      if (result.cancelled) return { status: 'cancelled', messages: added, toolOutputs: [], finalText };
      if (result.error) return { status: 'error', messages: added, toolOutputs: [], error: result.error, finalText };
      // Anthropic paused a long server-tool turn: ReAct sends it back as it is so the model goes on.
      if (!result.toolCalls.length && result.stopReason === 'pause_turn' && mode === 'react' && hasOutput) continue;
      if (!result.toolCalls.length) return { status: 'completed', messages: added, toolOutputs: [], finalText };
      if (result.stopReason === 'length') {
        this.deps.tree.update(this.parentId, { attrs: { note: 'The response was cut by the token limit: its tool calls were not executed.' } });
        return { status: 'completed', messages: added, toolOutputs: [], finalText };
      }
      const reuse = recorded ? (id: string) => recorded.toolOutput(turn, id) : undefined;
      const waiting = await this.handleToolCalls(mode, assistant, nodeId, reuse);
      if (waiting) return { status: 'completed', messages: added, toolOutputs: [], finalText };
      if (this.deps.signal.aborted) return { status: 'cancelled', messages: added, toolOutputs: [], finalText };
    }
    if (mode === 'react') {
      // The reason goes on the run node (runRefOf and the detail panel read it): the run is
      // complete as far as it went, but not finished, so Continue runs on.
      this.deps.tree.update(this.parentId, { attrs: { stopReason: 'max_turns', maxTurns, note: stopNote(maxTurns) } });
    }
    return { status: 'completed', messages: added, toolOutputs: [], finalText };
  }

  /**
   * Step mode: every call waits (`awaiting_input`). ReAct: runs the calls that need no approval
   * in parallel, writing outputs into `assistant`; returns true when any call waits for the user.
   */
  private async handleToolCalls(mode: RunMode, assistant: AssistantMessage, llmNodeId: string, reuse?: (toolCallId: string) => ToolOutput | undefined): Promise<boolean> {
    const { tree } = this.deps;
    const calls = assistant.toolCalls ?? [];
    const byName = (c: ToolCall) => this.thread.context.tools.find((t) => t.name === c.name);
    const waitOn = async (c: ToolCall) => {
      const id = tree.open({ kind: 'tool', name: c.name, parentId: llmNodeId, toolCallId: c.id, input: c.arguments, status: 'awaiting_input' });
      const tool = byName(c);
      const preview = tool && (await this.deps.previewFor?.(tool, c, this.thread).catch(() => undefined));
      if (preview) tree.update(id, { attrs: { preview } });
    };
    if (mode === 'step') {
      await Promise.all(calls.map(waitOn));
      return true;
    }
    const auto = calls.filter((c) => !needsApproval(byName(c), this.thread));
    const held = calls.filter((c) => needsApproval(byName(c), this.thread));
    await Promise.all(held.map(waitOn));
    const host = this.toolHost();
    await Promise.all(
      auto.map(async (c) => {
        if (this.deps.signal.aborted) return;
        const recorded = reuse?.(c.id);
        if (recorded) {
          // The earlier run's result, as it recorded it: the tool is not contacted.
          const id = tree.open({ kind: 'tool', name: c.name, parentId: llmNodeId, toolCallId: c.id, input: c.arguments, attrs: { replayedFrom: this.deps.recorded!.runId } });
          tree.close(id, { status: recorded.isError ? 'error' : 'completed', output: recorded });
          c.output = structuredClone(recorded);
          return;
        }
        c.output = await executeToolCall(host, c, llmNodeId);
      }),
    );
    return held.length > 0;
  }

  /** Tool step: execute the pending tool calls named (all when none named), in parallel. */
  private async toolStep(toolCallIds?: string[]): Promise<LoopResult> {
    const pending = pendingToolCalls(this.thread);
    const chosen = pending?.calls.filter((c) => !toolCallIds?.length || toolCallIds.includes(c.id)) ?? [];
    if (!pending || chosen.length === 0) {
      const what = toolCallIds?.length ? `tool calls ${toolCallIds.join(', ')}` : 'tool calls';
      return { status: 'error', messages: [], toolOutputs: [], finalText: '', error: { message: `No pending ${what} to run: the last message has none without a result.`, code: 'no_pending_tool_calls' } };
    }
    const host = this.toolHost();
    const toolOutputs: ToolOutputPatch[] = [];
    await Promise.all(
      chosen.map(async (c) => {
        if (this.deps.signal.aborted) return;
        const output: ToolOutput = await executeToolCall(host, c, this.parentId);
        if (!this.deps.signal.aborted) toolOutputs.push({ messageId: pending.message.id, toolCallId: c.id, output });
      }),
    );
    toolOutputs.sort((a, b) => chosen.findIndex((c) => c.id === a.toolCallId) - chosen.findIndex((c) => c.id === b.toolCallId));
    return { status: this.deps.signal.aborted ? 'cancelled' : 'completed', messages: [], toolOutputs, finalText: '' };
  }
}
