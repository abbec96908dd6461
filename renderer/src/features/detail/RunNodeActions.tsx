/**
 * Actions on a node of a finished run of the open thread (docs/architecture.md#branches-and-time-travel):
 * Branch from here (a new thread holding the conversation as it was at this node) and, on one of
 * the run's own model calls, Re-run from this call (time travel: the calls before it played back,
 * this one and the rest live, as a new run).
 */
import { Button, Group, Tooltip } from '@mantine/core';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import { modelCalls } from '../../../../shared/thread/run-points';
import { useApp } from '../../state/context';
import { useSession, useThreadMeta } from '../../state/hooks';
import { branchFrom, reRunFrom } from '../../state/branching';

export function RunNodeActions({ record, nodeId }: { record: RunRecord; nodeId: string }) {
  const app = useApp();
  const session = useSession();
  const meta = useThreadMeta();
  if (app.host.presentational || !session || record.threadId !== session.id || record.status === 'running') return null;
  const call = modelCalls(record).findIndex((n) => n.id === nodeId) + 1;
  const running = !!meta?.runningRunId;
  return (
    <Group gap={6}>
      <Tooltip label="A new thread beside this one, holding the conversation as it was at this step">
        <Button size="compact-xs" variant="light" onClick={() => void branchFrom(app, { runId: record.runId, nodeId })}>Branch from here</Button>
      </Tooltip>
      {call > 0 && (
        <Tooltip label={`A new run: model calls before call ${call} are played back from this run (no provider or tool contacted), call ${call} and later run live`}>
          <Button size="compact-xs" variant="light" disabled={running} onClick={() => void reRunFrom(app, record.runId, record.mode, call)}>Re-run from this call</Button>
        </Tooltip>
      )}
    </Group>
  );
}
