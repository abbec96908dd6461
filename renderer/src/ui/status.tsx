/** Node status shown the same way everywhere: colour plus word (docs/architecture.md#interface-conventions). */
import './status.css';
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
  const c = COLORS[status];
  return (
    <span className="sw-status" style={{ color: `var(--mantine-color-${c}-light-color)`, background: `var(--mantine-color-${c}-light)` }}>
      {statusWord(status)}
      {syncing ? ' · syncing' : ''}
    </span>
  );
}
