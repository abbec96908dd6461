/**
 * "Show in thread" for an execution-tree node: finds the message the node stands for in the
 * open thread (node-message.ts) and asks the playground's message list to scroll to it and
 * focus it (state/message-jump.ts).
 */
import { useCallback } from 'react';
import type { ExecNode } from '../../../../shared/protocol/nodes';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { AppState } from '../../state/app';
import { useApp } from '../../state/context';
import { jumpTo, messageJumpAtom } from '../../state/message-jump';
import { messageForNode } from './node-message';

/** The nodes of run `runId` as this window holds them (its live tree), else as its record has them. */
export function runNodes(app: AppState, runId: string, record: RunRecord | undefined): ExecNode[] {
  const tree = app.store.get(app.stream.runTreeAtom(runId));
  const live = (tree?.structure.order ?? []).map((id) => app.stream.live(id)?.node).filter((n): n is ExecNode => !!n);
  return live.length ? live : (record?.nodes ?? []);
}

/** The ids of the messages a run added, in order, from its record. */
export function addedMessageIds(record: RunRecord | undefined): string[] | undefined {
  return Array.isArray(record?.messages) ? record.messages.map((m) => (m as { id?: unknown }).id).filter((id): id is string => typeof id === 'string') : undefined;
}

/**
 * A function that shows the message of node `nodeId` of run `runId` in the playground;
 * resolves to whether the open thread has one.
 */
export function useJumpToMessage(): (runId: string, nodeId: string) => Promise<boolean> {
  const app = useApp();
  return useCallback(
    async (runId: string, nodeId: string) => {
      const session = app.session;
      if (!session) return false;
      const record = await app.record(runId);
      const id = messageForNode(session.thread.context.messages, nodeId, runNodes(app, runId, record), addedMessageIds(record));
      if (!id) return false;
      app.store.set(messageJumpAtom, jumpTo(id));
      return true;
    },
    [app],
  );
}
