/** Settings: providers (masked keys, add/save, remove the ones added here), MCP servers (status, Test with stderr), app theme. */
import { useEffect, useState } from 'react';
import { useAtom } from 'jotai';
import { Code, Modal, SegmentedControl, Stack, Tabs, Text } from '@mantine/core';
import { useMantineColorScheme } from '@mantine/core';
import { useApp } from '../../state/context';
import { ProvidersSettings } from './ProvidersSettings';
import { McpServersSettings } from './McpServersSettings';

/** The settings modal (opened from the header). */
export function SettingsModal() {
  const app = useApp();
  const [open, setOpen] = useAtom(app.settingsOpenAtom);
  return (
    <Modal opened={open} onClose={() => setOpen(false)} title="Settings" size="xl">
      <Tabs defaultValue="providers">
        <Tabs.List>
          <Tabs.Tab value="providers">Providers</Tabs.Tab>
          <Tabs.Tab value="mcp">MCP servers</Tabs.Tab>
          <Tabs.Tab value="app">App</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="providers" pt="sm"><ProvidersSettings /></Tabs.Panel>
        <Tabs.Panel value="mcp" pt="sm"><McpServersSettings /></Tabs.Panel>
        <Tabs.Panel value="app" pt="sm"><AppSettings /></Tabs.Panel>
      </Tabs>
    </Modal>
  );
}

function AppSettings() {
  const app = useApp();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const [where, setWhere] = useState<{ home: string; workspaceDir: string } | null>(null);
  useEffect(() => {
    app.host.call('settings.app', {}).then(setWhere, () => setWhere(null));
  }, [app]);
  return (
    <Stack gap="xs">
      {where && (
        <>
          <Text size="sm" fw={600}>Workspace folder</Text>
          <Code>{where.workspaceDir}</Code>
          <Text size="xs" c="dimmed">Threads are files in this folder; runs and settings live in {where.home}. To use another folder, start Stepwise with STEPWISE_HOME set (or `stepwise serve --home DIR`).</Text>
        </>
      )}
      <Text size="sm" fw={600}>Theme</Text>
      <SegmentedControl value={colorScheme} onChange={(v) => setColorScheme(v as 'light' | 'dark' | 'auto')} aria-label="Theme"
        data={[{ value: 'auto', label: 'System' }, { value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }]} />
      <Text size="xs" c="dimmed">System follows your operating system's light or dark setting.</Text>
    </Stack>
  );
}
