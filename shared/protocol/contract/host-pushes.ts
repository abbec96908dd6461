/**
 * Everything the host pushes to a client, once (docs/architecture.md#envelopes): the stream
 * envelopes, thread patches, and host events. A client checks each push against
 * {@link HostPushSchema} where it receives it.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { RunModeSchema } from '../../thread/schema';
import { NodeStatusSchema } from '../nodes';
import { LlmDeltaSchema, NodeSnapshotSchema, NodeUpdateSchema, RunResultSchema, ThreadPatchSchema, TreeUpdateSchema } from '../envelopes';
import { messageProblem } from './define';

/** Host events besides envelopes, by `type`. */
export const HOST_EVENTS = {
  /** A thread file or folder was created, renamed, moved or deleted. */
  workspace_changed: T.Object({ type: T.Literal('workspace_changed') }),
  run_started: T.Object({ type: T.Literal('run_started'), runId: T.String(), threadId: T.String(), mode: RunModeSchema }),
  run_ended: T.Object({ type: T.Literal('run_ended'), runId: T.String(), threadId: T.String(), status: NodeStatusSchema }),
  /** Something a person should read (a repaired journal, a settings file that does not load). */
  notice: T.Object({
    type: T.Literal('notice'),
    level: T.Union([T.Literal('info'), T.Literal('warn'), T.Literal('error')]),
    message: T.String(),
  }),
};

export const HostEventSchema = T.Union(Object.values(HOST_EVENTS));
export type HostEvent = Static<typeof HostEventSchema>;

/** Every push, by `type`: a client checks a push against the entry its `type` names. */
export const HOST_PUSHES = {
  tree_update: TreeUpdateSchema,
  node_update: NodeUpdateSchema,
  llm_delta: LlmDeltaSchema,
  node_snapshot: NodeSnapshotSchema,
  run_result: RunResultSchema,
  thread_patch: ThreadPatchSchema,
  ...HOST_EVENTS,
};

/** One push: a stream envelope, a run result, a thread patch or a host event. */
export const HostPushSchema = T.Union(Object.values(HOST_PUSHES));
export type HostPush = Static<typeof HostPushSchema>;

/**
 * Why `push` is not a push of the contract (`path: problem`, the entry chosen by its `type`),
 * or undefined when it is one.
 */
export function pushProblem(push: unknown): string | undefined {
  return messageProblem(HOST_PUSHES, push, 1);
}
