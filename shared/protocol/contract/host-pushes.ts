/**
 * Everything the host pushes to a client, once (docs/architecture.md#envelopes): the stream
 * envelopes, thread patches, and host events. A client checks each push against
 * {@link HostPushSchema} where it receives it.
 */
import { Type as T } from '@sinclair/typebox';
import { RunModeSchema } from '../../thread/schema';
import { NodeStatusSchema } from '../nodes';
import { NodeSnapshotSchema, RUNNER_ENVELOPES, ThreadPatchSchema, ThreadUpdateSchema } from '../envelopes';
import { McpLogEntrySchema, McpServerInfoSchema } from './host-methods';
import { literals, messageProblem, unionOf, type MessageOf } from './define';
import { BatchProgressSchema, CaseResultSchema } from './eval-methods';

/** Host events besides envelopes, by `type`. */
export const HOST_EVENTS = {
  /** A thread file or folder was created, renamed, moved or deleted. */
  workspace_changed: T.Object({ type: T.Literal('workspace_changed') }),
  run_started: T.Object({ type: T.Literal('run_started'), runId: T.String(), threadId: T.String(), mode: RunModeSchema }),
  run_ended: T.Object({ type: T.Literal('run_ended'), runId: T.String(), threadId: T.String(), status: NodeStatusSchema }),
  /** A batch moved on (a case started or finished); `result` is the case that just finished. */
  eval_progress: T.Object({
    type: T.Literal('eval_progress'),
    batchId: T.String(),
    progress: BatchProgressSchema,
    result: T.Optional(CaseResultSchema),
    /** The batch ended (every case finished, or it was cancelled). */
    ended: T.Optional(T.Boolean()),
  }),
  /** An MCP server's connection status changed (connecting, connected, error with the reason). */
  mcp_server_status: T.Object({ type: T.Literal('mcp_server_status'), server: McpServerInfoSchema }),
  /** A subscribed MCP resource changed (`notifications/resources/updated`): read it again to see how. */
  mcp_resource_updated: T.Object({ type: T.Literal('mcp_resource_updated'), server: T.String(), uri: T.String() }),
  /** One message of an MCP server's protocol log, as it happens (in or out). */
  mcp_server_log: T.Object({ type: T.Literal('mcp_server_log'), server: T.String(), entry: McpLogEntrySchema }),
  /**
   * Something a person should read (a repaired journal, a settings file that does not load).
   * `key` names what it is about (`file:<thread file>`): a later notice with the same key ends
   * an error shown for an earlier one (the file loads again).
   */
  notice: T.Object({
    type: T.Literal('notice'),
    level: literals('info', 'warn', 'error'),
    message: T.String(),
    key: T.Optional(T.String()),
  }),
};

export const HostEventSchema = unionOf(HOST_EVENTS);
export type HostEvent = MessageOf<typeof HOST_EVENTS>;

/** Every push, by `type`: a client checks a push against the entry its `type` names. */
export const HOST_PUSHES = {
  ...RUNNER_ENVELOPES,
  node_snapshot: NodeSnapshotSchema,
  thread_patch: ThreadPatchSchema,
  thread_update: ThreadUpdateSchema,
  ...HOST_EVENTS,
};

/** One push: a stream envelope, a run result, a thread patch or a host event. */
export const HostPushSchema = unionOf(HOST_PUSHES);
export type HostPush = MessageOf<typeof HOST_PUSHES>;

/**
 * Why `push` is not a push of the contract (`path: problem`, the entry chosen by its `type`),
 * or undefined when it is one.
 */
export function pushProblem(push: unknown): string | undefined {
  return messageProblem(HOST_PUSHES, push, 1);
}
