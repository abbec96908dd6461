/**
 * Execution-tree nodes (docs/architecture.md#the-execution-tree). Every run is a tree of nodes; the root is the run.
 */
import { Type, type Static } from '@sinclair/typebox';
import { literals } from './contract/define';

/** Node status; terminal ones never go back to running (docs/architecture.md#the-execution-tree). */
export const NodeStatusSchema = literals('pending', 'running', 'awaiting_input', 'completed', 'error', 'cancelled', 'interrupted');
export type NodeStatus = Static<typeof NodeStatusSchema>;

export { TERMINAL_STATUSES, isTerminal } from './status';

export const NodeKindSchema = literals('run', 'llm', 'tool', 'sampling', 'agent');
export type NodeKind = Static<typeof NodeKindSchema>;

/**
 * Token usage of one LLM call as the provider reported it, or of a run or thread summed
 * (shared/protocol/usage.ts). `inputTokens` is the provider's own count: OpenAI's includes the
 * cached tokens, Anthropic's does not (its cache reads and writes are counted apart).
 */
export const UsageSchema = Type.Object({
  inputTokens: Type.Number(),
  outputTokens: Type.Number(),
  /** Input tokens read from the prompt cache (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`). */
  cacheReadTokens: Type.Optional(Type.Number()),
  /** Input tokens written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
  cacheWriteTokens: Type.Optional(Type.Number()),
  /** Output tokens spent on reasoning (OpenAI `reasoning_tokens`), part of `outputTokens`. */
  reasoningTokens: Type.Optional(Type.Number()),
  /**
   * Cost in USD at the model's known price when the call ran (shared/protocol/prices.ts). Absent
   * when the model has no known price: then only tokens are shown, never a guessed cost. A sum
   * has it only when every call in it had one.
   */
  costUsd: Type.Optional(Type.Number({ minimum: 0 })),
});
export type Usage = Static<typeof UsageSchema>;

/** Timing of an LLM call in milliseconds from the request being sent. */
export const TimingSchema = Type.Object({
  firstTokenMs: Type.Optional(Type.Number()),
  durationMs: Type.Optional(Type.Number()),
});
export type Timing = Static<typeof TimingSchema>;

/** A failure as data: what a user reads, plus raw details behind a disclosure. */
export const NodeErrorSchema = Type.Object({
  message: Type.String(),
  code: Type.Optional(Type.String()),
  details: Type.Optional(Type.String()),
});
export type NodeError = Static<typeof NodeErrorSchema>;

/** One tool call as an LLM node's output carries it. */
export const OutputToolCallSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  arguments: Type.Unknown(),
  rawArguments: Type.Optional(Type.String()),
});

/** Output of an `llm` / `sampling` node. */
export const LlmOutputSchema = Type.Object({
  text: Type.String(),
  thinking: Type.Optional(Type.String()),
  toolCalls: Type.Optional(Type.Array(OutputToolCallSchema)),
  /**
   * Tool activity the provider ran itself (Anthropic server tools, the MCP connector): each
   * block as received (the thread's `server_tool` parts), in order. Never client tool calls.
   */
  serverTools: Type.Optional(Type.Array(Type.Object({ type: Type.String() }))),
  stopReason: Type.Optional(Type.String()),
});
export type LlmOutput = Static<typeof LlmOutputSchema>;

/** One log line a tool reported (MCP logging), as a node keeps it in `attrs.logs`; `t` is epoch ms. */
export const NodeLogSchema = Type.Object({
  level: Type.String(),
  data: Type.Unknown(),
  t: Type.Number(),
});
export type NodeLog = Static<typeof NodeLogSchema>;

/**
 * One node of the execution tree. `startedAt`/`endedAt` are epoch milliseconds; `durationMs` is
 * how long the node ran, measured once when it closed on a monotonic clock (duration.ts).
 */
export const ExecNodeSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  runId: Type.String({ minLength: 1, maxLength: 200 }),
  parentId: Type.Optional(Type.String()),
  kind: NodeKindSchema,
  name: Type.String(),
  status: NodeStatusSchema,
  startedAt: Type.Number(),
  endedAt: Type.Optional(Type.Number()),
  durationMs: Type.Optional(Type.Number({ minimum: 0 })),
  input: Type.Optional(Type.Unknown()),
  output: Type.Optional(Type.Unknown()),
  error: Type.Optional(NodeErrorSchema),
  usage: Type.Optional(UsageSchema),
  timing: Type.Optional(TimingSchema),
  model: Type.Optional(Type.String()),
  toolCallId: Type.Optional(Type.String()),
  attrs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type ExecNode = Static<typeof ExecNodeSchema>;
