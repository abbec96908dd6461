/**
 * The tool-executor interface the agent loop runs tools through. Function tools with a result
 * typed by the user need nothing more; MCP tools plug in through the mcp-host port.
 */
import type { Tool } from '../../shared/thread/tools';
import type { ToolCall, ToolOutput, Message } from '../../shared/thread/messages';
import type { ModelConfig } from '../../shared/thread/model-config';
import type { Thread } from '../../shared/thread/schema';
import type { LlmCallResult } from '../providers/types';

/** A nested LLM call caused by a tool (MCP sampling, an agent tool, a judge). */
export interface NestedLlmCall {
  kind: 'sampling' | 'llm';
  name: string;
  systemPrompt: string;
  messages: Message[];
  /** Defaults to the thread's model. */
  model?: ModelConfig;
  maxTokens?: number;
}

/** What a running tool may do to its own tool node. */
export interface ToolContext {
  runId: string;
  /** Ids of the providers this run can use (MCP sampling picks a model by the server's hints). */
  providerIds: string[];
  /** The tool node's id. */
  nodeId: string;
  thread: Thread;
  signal: AbortSignal;
  /** Progress notification (MCP notifications/progress). Units are the server's. */
  progress(progress: number, total?: number, message?: string): void;
  /** A log line from the tool (MCP logging), attached to the node. */
  log(level: string, data: unknown): void;
  /** Run an LLM call as a child node of this tool node, streamed like any LLM node. */
  nestedLlm(call: NestedLlmCall): Promise<LlmCallResult>;
  /**
   * Run another thread as a nested agent under an `agent` node; resolves to its final text.
   * `threadPath` is relative to the workspace.
   */
  nestedAgent(threadPath: string, userText: string): Promise<{ text: string; isError: boolean }>;
  /**
   * Put the tool node in `awaiting_input` with `request` in its attrs until the host sends the
   * user's answer: an elicitation's answer, or the verdict on a sampling request under review
   * (`{ action: 'approve', params? }` | `{ action: 'reject' }`). Rejects when the run is cancelled.
   */
  awaitInput(request: InputRequest): Promise<unknown>;
  /** Merge attributes into the node (e.g. the MCP protocol log of this call). */
  setAttrs(attrs: Record<string, unknown>): void;
}

export interface ToolExecutor {
  /** True if this executor runs this kind of tool. */
  handles(tool: Tool): boolean;
  /** Runs one call. Failures resolve to `{ isError: true }` output; rejecting is for bugs only. */
  execute(tool: Tool, call: ToolCall, ctx: ToolContext): Promise<ToolOutput>;
}

/** What a tool node waits for the user for (`attrs.inputRequest`). */
export type InputRequest =
  | { kind: 'elicitation'; message: string; schema: unknown }
  /** A server's sampling/createMessage `params`, to approve (possibly edited) or reject. */
  | { kind: 'sampling'; server: string; params: Record<string, unknown> }
  /** The `ask_user_question` built-in tool; answered with `{ kind: 'answers', answers: { [id]: text } }`. */
  | { kind: 'question'; questions: { id: string; question: string; options?: string[] }[] };
