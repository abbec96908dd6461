/**
 * Where the open thread branched from and its own branches (docs/architecture.md#branches-and-time-travel),
 * as links that open them. Branches are found in the workspace list: each entry carries its
 * thread's `branchOf`.
 */
import { useAtomValue } from 'jotai';
import { Anchor, Group, Text } from '@mantine/core';
import type { Thread } from '../../../../shared/thread/schema';
import { useApp } from '../../state/context';
import { shortRunId } from '../runs/compare';

/** "Branch of …" and "Branches: …" lines of the playground header; nothing for a thread with neither. */
export function BranchLinks({ thread }: { thread: Thread }) {
  const app = useApp();
  const { entries } = useAtomValue(app.workspaceAtom);
  const of = thread.branchOf;
  const source = of ? entries.find((e) => e.kind === 'thread' && e.id === of.threadId) : undefined;
  const branches = entries.filter((e) => e.kind === 'thread' && e.branchOf?.threadId === thread.id);
  if (!of && branches.length === 0) return null;
  const at = of?.runId ? `run ${shortRunId(of.runId)}` : of?.messageId ? `message ${Math.max(1, thread.context.messages.findIndex((m) => m.id === of.messageId) + 1)}` : undefined;
  return (
    <Group gap={6} wrap="wrap" aria-label="Branches">
      {of && (
        <Text size="xs" c="dimmed">
          Branch of{' '}
          {source ? (
            <Anchor component="button" type="button" size="xs" onClick={() => void app.openThread(source.path)}>{source.title}</Anchor>
          ) : (
            <Text span size="xs">{of.title ?? of.threadId} (no longer in the workspace)</Text>
          )}
          {at ? ` at ${at}` : ''}
        </Text>
      )}
      {branches.length > 0 && (
        <Text size="xs" c="dimmed">
          Branches:{' '}
          {branches.map((b, i) => (
            <span key={b.path}>
              {i > 0 && ', '}
              <Anchor component="button" type="button" size="xs" onClick={() => void app.openThread(b.path)}>{b.title}</Anchor>
            </span>
          ))}
        </Text>
      )}
    </Group>
  );
}
