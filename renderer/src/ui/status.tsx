/** Node status shown the same way everywhere: colour plus word (docs/architecture.md#interface-conventions). */
import { Badge } from '@mantine/core';
import type { NodeStatus } from '../../../shared/protocol/nodes';

/** The word for a status, as used in accessible names ("awaiting input"). */
export function statusWord(s: NodeStatus): string {
  return s === 'awaiting_input' ? 'awaiting input' : s;
}

const COLORS: Record<NodeStatus, string> = {
  pending: 'gray',
  running: 'blue',
  awaiting_input: 'yellow',
  completed: 'teal',
  error: 'red',
  cancelled: 'gray',
  interrupted: 'orange',
};

/** Mantine colour of a status. */
export const statusColor = (s: NodeStatus): string => COLORS[s];

/** A small badge: dot colour plus the status word. */
export function StatusBadge({ status, syncing }: { status: NodeStatus; syncing?: boolean }) {
  return (
    <Badge size="xs" variant="light" color={COLORS[status]} radius="sm" style={{ flexShrink: 0 }}>
      {statusWord(status)}
      {syncing ? ' · syncing' : ''}
    </Badge>
  );
}
