/**
 * What the middle panel offers when no thread is open (first start included): the example
 * threads to open, and the model providers found ready to use — keys detected in the
 * environment or configured — with the example that uses each.
 */
import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ProviderInfo } from '../../../../shared/protocol/host-api';
import { useApp } from '../../state/context';

export function StartPanel() {
  const app = useApp();
  const { entries } = useAtomValue(app.workspaceAtom);
  const [providers, setProviders] = useState<ProviderInfo[]>([]);
  useEffect(() => {
    app.host.call('settings.providers', {}).then(setProviders, () => setProviders([]));
  }, [app]);
  const ready = providers.filter((p) => p.api !== 'scripted' && p.api !== 'replay' && (p.detected || (p.keyHint && !p.keyHint.startsWith('$'))));
  const threads = entries.filter((e) => e.kind === 'thread' && !e.error);
  const offline = threads.find((t) => /step by step/i.test(t.title)) ?? threads[0];
  const exampleFor = (id: string) => threads.find((t) => t.title.toLowerCase().startsWith(id.toLowerCase()));
  return (
    <Stack p="lg" gap="sm">
      <Title order={4}>No thread open</Title>
      <Text size="sm" c="dimmed">Open a thread in the workspace on the left, or press New thread.</Text>
      {offline && (
        <Group gap={6}>
          <Button size="xs" variant="light" onClick={() => void app.openThread(offline.path)}>Open “{offline.title}”</Button>
          <Text size="xs" c="dimmed">runs offline on the scripted model, with the MCP “everything” server</Text>
        </Group>
      )}
      {ready.length > 0 && (
        <Stack gap={4} aria-label="Providers ready to use">
          <Text size="sm" fw={600}>Ready to use</Text>
          {ready.map((p) => {
            const ex = exampleFor(p.id);
            return (
              <Group key={p.id} gap={6}>
                <Text size="sm" ff="monospace">{p.id}</Text>
                <Badge size="xs" variant="light">{p.detected ? `key from ${p.keyHint}` : 'key saved'}</Badge>
                {ex && <Button size="compact-xs" variant="subtle" onClick={() => void app.openThread(ex.path)}>Open “{ex.title}”</Button>}
              </Group>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
