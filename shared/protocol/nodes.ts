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

/** Token usage of one LLM call, as the provider reported it. */
export const UsageSchema = Type.Object({
  inputTokens: Type.Number(),
  outputTokens: Type.Number(),
  cacheReadTokens: Type.Optional(Type.Number()),
  cacheWriteTokens: Type.Optional(Type.Number()),
  reasoningTokens: Type.Optional(Type.Number()),
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

/** One node of the execution tree. `startedAt`/`endedAt` are epoch milliseconds. */
export const ExecNodeSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  runId: Type.String({ minLength: 1, maxLength: 200 }),
  parentId: Type.Optional(Type.String()),
  kind: NodeKindSchema,
  name: Type.String(),
  status: NodeStatusSchema,
  startedAt: Type.Number(),
  endedAt: Type.Optional(Type.Number()),
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
