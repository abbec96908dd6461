/**
 * An inline confirmation for a destructive action (remove, replace, reset): what will happen,
 * Cancel, and the action's own red button. A group named `label` ("Confirm removing files").
 */
import { Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ConfirmRowProps {
  /** Accessible name of the group, e.g. `Confirm removing files`. */
  label: string;
  /** What confirming does, in a sentence. */
  children: ReactNode;
  /** The confirming button's text, e.g. `Remove files`. */
  action: string;
  onConfirm: () => void;
  onCancel: () => void;
  disabled?: boolean;
}

/** See the file comment. */
export function ConfirmRow({ label, children, action, onConfirm, onCancel, disabled }: ConfirmRowProps) {
  return (
    <Group gap={6} role="group" aria-label={label}>
      <Text size="xs" style={{ flex: 1 }}>{children}</Text>
      <Button size="compact-xs" variant="default" onClick={onCancel}>Cancel</Button>
      <Button size="compact-xs" color="red" disabled={disabled} onClick={onConfirm}>{action}</Button>
    </Group>
  );
}
