/**
 * The middle panel for a malformed thread file the user opened: its whole load error (the
 * workspace tree has room for three lines only), copyable, and what to do about it.
 */
import { Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import type { WorkspaceEntry } from '../../../../shared/protocol/host-api';

/** `entry.error` in full; `onClose` goes back to the thread (or start panel) shown before. */
export function BrokenThread({ entry, onClose }: { entry: WorkspaceEntry; onClose(): void }) {
  return (
    <Stack p="lg" gap="sm" role="region" aria-label={`${entry.title} does not load`}>
      <Title order={5}>“{entry.title}” does not load</Title>
      <Text size="sm" c="dimmed">
        The file {entry.path} is not a valid thread, so it cannot be opened. Fix it at the place the error names (Stepwise never overwrites a file that does not load); the workspace picks the change up.
      </Text>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} aria-label="Load error">{entry.error}</Code>
      <Group gap={6}>
        <CopyButton value={entry.error ?? ''}>
          {({ copied, copy }) => <Button size="xs" variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy error'}</Button>}
        </CopyButton>
        <Button size="xs" variant="subtle" onClick={onClose}>Close</Button>
      </Group>
    </Stack>
  );
}
