/**
 * Envelopes (docs/architecture.md#envelopes): every frame between runner, bridge and clients is one envelope
 * `{ v: 1, type, runId, ... }`, schema-checked by the bridge.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ExecNodeSchema, NodeLogSchema, NodeStatusSchema } from './nodes';
import { MessageSchema, ToolOutputSchema } from '../thread/messages';
import { literals, type MessageOf } from './contract/define';

export const PROTOCOL_VERSION = 1;
const V = Type.Literal(PROTOCOL_VERSION);
const RunId = Type.String({ minLength: 1, maxLength: 200 });

/** Node upserts: open, status change, close with final output/error/usage. */
export const TreeUpdateSchema = Type.Object({
  v: V,
  type: Type.Literal('tree_update'),
  runId: RunId,
  nodes: Type.Array(ExecNodeSchema, { minItems: 1 }),
});
export type TreeUpdate = Static<typeof TreeUpdateSchema>;

/**
 * What changed in one live node, and nothing else (docs/architecture.md#envelopes): a new live
 * status, a new `input` or `output`, attributes set (merged over the node's `attrs`, key by
 * key), log lines appended to `attrs.logs` (the last MAX_NODE_LOGS are kept). A node opens and
 * closes by `tree_update` with the whole node; in between, changes travel as this, so a long
 * tool log costs each line once, not the whole log per line.
 */
export const NodeUpdateSchema = Type.Object({
  v: V,
  type: Type.Literal('node_update'),
  runId: RunId,
  nodeId: Type.String({ minLength: 1, maxLength: 200 }),
  /** Never a terminal status: a node closes only by `tree_update`, with its final state. */
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('awaiting_input')])),
  input: Type.Optional(Type.Unknown()),
  output: Type.Optional(Type.Unknown()),
  attrs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  logs: Type.Optional(Type.Array(NodeLogSchema, { minItems: 1 })),
});
export type NodeUpdate = Static<typeof NodeUpdateSchema>;
/** The changed fields of a {@link NodeUpdate}: what a runner's tree hands its emitter. */
export type NodeChange = Omit<NodeUpdate, 'v' | 'type' | 'runId'>;

export const DeltaChannelSchema = literals('text', 'thinking', 'tool_args');
export type DeltaChannel = Static<typeof DeltaChannelSchema>;

/** A piece of streamed output. `seq` counts the node's deltas from 1 without holes, across channels. */
export const LlmDeltaSchema = Type.Object({
  v: V,
  type: Type.Literal('llm_delta'),
  runId: RunId,
  nodeId: Type.String({ minLength: 1, maxLength: 200 }),
  channel: DeltaChannelSchema,
  /** Content index; for tool_args the tool call's index in the response. */
  index: Type.Integer({ minimum: 0 }),
  toolCallId: Type.Optional(Type.String()),
  /** For tool_args: the tool's name, so a partial call cut off by a crash still names its tool. */
  toolName: Type.Optional(Type.String()),
  delta: Type.String(),
  seq: Type.Integer({ minimum: 1 }),
});
export type LlmDelta = Static<typeof LlmDeltaSchema>;

/** A live node's assembled state at `seq`, or `available: false` when the bridge has none. */
export const NodeSnapshotSchema = Type.Union([
  Type.Object({
    v: V,
    type: Type.Literal('node_snapshot'),
    runId: RunId,
    nodeId: Type.String(),
    seq: Type.Integer({ minimum: 0 }),
    text: Type.String(),
    thinking: Type.String(),
    toolArgs: Type.Record(Type.String(), Type.String()),
    status: NodeStatusSchema,
  }),
  Type.Object({
    v: V,
    type: Type.Literal('node_snapshot'),
    runId: RunId,
    nodeId: Type.String(),
    available: Type.Literal(false),
  }),
]);
export type NodeSnapshot = Static<typeof NodeSnapshotSchema>;

/** A tool result a tool step fills into an existing assistant message's tool call. */
export const ToolOutputPatchSchema = Type.Object({
  messageId: Type.String(),
  toolCallId: Type.String(),
  output: ToolOutputSchema,
});
export type ToolOutputPatch = Static<typeof ToolOutputPatchSchema>;

/** What a run adds to its thread, applied by the host as one patch. */
export const RunResultSchema = Type.Object({
  v: V,
  type: Type.Literal('run_result'),
  runId: RunId,
  status: NodeStatusSchema,
  /** Messages to append to the thread. */
  messages: Type.Array(MessageSchema),
  /** Outputs for tool calls already in the thread (tool steps). */
  toolOutputs: Type.Optional(Type.Array(ToolOutputPatchSchema)),
});
export type RunResult = Static<typeof RunResultSchema>;

/** An Immer patch (JSON-pointer-like path as an array). */
export const PatchSchema = Type.Object({
  op: literals('add', 'remove', 'replace'),
  path: Type.Array(Type.Union([Type.String(), Type.Number()])),
  value: Type.Optional(Type.Unknown()),
});

/** Patches to a thread document, broadcast by the host after it applied them at `version`. */
export const ThreadPatchSchema = Type.Object({
  v: V,
  type: Type.Literal('thread_patch'),
  threadId: Type.String(),
  /** The document's version after these patches. */
  version: Type.Integer({ minimum: 0 }),
  patches: Type.Array(PatchSchema),
  /** Who made the edit: a client id, `run:<runId>`, or `host`. */
  origin: Type.String(),
});
export type ThreadPatch = Static<typeof ThreadPatchSchema>;

/** Longest Yjs update (base64 characters) a `thread.update` or `thread_update` carries: 16 MiB. */
export const MAX_YJS_UPDATE_CHARS = 16 * 1024 * 1024;

/** A Yjs update or state vector, base64 (docs/architecture.md#multi-window-editing). */
export const YjsBytesSchema = Type.String({ maxLength: MAX_YJS_UPDATE_CHARS, pattern: '^[A-Za-z0-9+/]*={0,2}$', default: '' });

/**
 * A change of an open thread's Yjs document (docs/architecture.md#multi-window-editing), pushed
 * to the windows that have the thread open: another window's update relayed, or a host
 * transaction (a run's result, an edit by patches, the file changed outside, an update reverted).
 */
export const ThreadUpdateSchema = Type.Object({
  v: V,
  type: Type.Literal('thread_update'),
  threadId: Type.String(),
  /** The host document it applies to (`thread.sync`'s `docId`): another one means reload. */
  docId: Type.String(),
  update: YjsBytesSchema,
  /** Who made it: `client:<id>`, `run:<runId>`, `file`, or `host`. */
  origin: Type.String(),
});
export type ThreadUpdate = Static<typeof ThreadUpdateSchema>;

/** Envelopes a runner may post, by `type` (checked by the bridge); the host adds snapshots and thread patches. */
export const RUNNER_ENVELOPES = { tree_update: TreeUpdateSchema, node_update: NodeUpdateSchema, llm_delta: LlmDeltaSchema, run_result: RunResultSchema };
export type RunnerEnvelope = MessageOf<typeof RUNNER_ENVELOPES>;

/** Envelopes a client consumes. */
export type StreamEnvelope = TreeUpdate | NodeUpdate | LlmDelta | NodeSnapshot;
export type Envelope = StreamEnvelope | RunResult | ThreadPatch;
