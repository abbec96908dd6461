/** The window: header, and the three resizable panels (workspace · playground · execution). */
import { useCallback, useEffect, useState } from 'react';
import { Provider as JotaiProvider, useAtom, useAtomValue } from 'jotai';
import { ActionIcon, Box, Group, Text, Tooltip, useMantineColorScheme, useComputedColorScheme } from '@mantine/core';
import { Group as PanelGroup, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import type { HostServices } from './host/types';
import { HostProvider } from './host/context';
import { AppState } from './state/app';
import { AppStateProvider, useApp } from './state/context';
import { WorkspaceTree } from './features/workspace/WorkspaceTree';
import { Playground } from './features/playground/Playground';
import { ExecutionPanel } from './features/execution/ExecutionPanel';
import { SettingsModal } from './features/settings/SettingsModal';
import { ErrorNotice } from './ui/ErrorNotice';
import { useShortcuts } from './shortcuts';
import { PanelBoundary } from './ui/ErrorBoundary';

/** Root component for a host; `initialPath` opens that thread at start (viewer). */
export function App({ host, initialPath }: { host: HostServices; initialPath?: string }) {
  const [app] = useState(() => new AppState(host));
  useEffect(() => {
    void app.start().then(async () => {
      const first = initialPath ?? (host.presentational ? app.store.get(app.workspaceAtom).entries.find((e) => e.kind === 'thread')?.path : undefined);
      if (first) {
        await app.openThread(first);
        if (host.presentational) {
          const refs = app.store.get(app.runRefsAtom);
          if (refs[0]) await app.openRecord(refs[0].id);
        }
      }
    });
    return () => app.stop();
  }, [app, host, initialPath]);
  return (
    <HostProvider host={host}>
      <AppStateProvider app={app}>
        <JotaiProvider store={app.store}>
          <Shell />
        </JotaiProvider>
      </AppStateProvider>
    </HostProvider>
  );
}

function Shell() {
  const app = useApp();
  const [error, setError] = useAtom(app.errorAtom);
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const layout = useDefaultLayout({ id: 'stepwise-main', storage: localStorage });
  const newThread = useCallback(() => void app.newThread(), [app]);
  useShortcuts(app, newThread);
  return (
    <Box style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Group h={38} px="sm" gap="sm" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}>
        <Text fw={700} size="sm">Stepwise</Text>
        <Text size="xs" c="dimmed">build and debug agents step by step</Text>
        {app.host.presentational && <Text size="xs" c="orange">read-only viewer</Text>}
        <div style={{ flex: 1 }} />
        <Connection />
        <Tooltip label={`Switch to ${computed === 'dark' ? 'light' : 'dark'} theme`}>
          <ActionIcon variant="subtle" aria-label="Toggle theme" onClick={() => setColorScheme(computed === 'dark' ? 'light' : 'dark')}>{computed === 'dark' ? '☀' : '☾'}</ActionIcon>
        </Tooltip>
        {!app.host.presentational && (
          <ActionIcon variant="subtle" aria-label="Settings" onClick={() => app.store.set(app.settingsOpenAtom, true)}>⚙</ActionIcon>
        )}
      </Group>
      {error && (
        <Box p="xs" style={{ flexShrink: 0 }}>
          <ErrorNotice {...error} onClose={() => setError(null)} />
        </Box>
      )}
      <Box style={{ flex: 1, minHeight: 0 }}>
        <PanelGroup orientation="horizontal" defaultLayout={layout.defaultLayout} onLayoutChanged={layout.onLayoutChanged} style={{ height: '100%' }}>
          <Panel id="workspace" defaultSize="18%" minSize="10%" collapsible collapsedSize="0%">
            <PanelBoundary name="workspace"><WorkspaceTree /></PanelBoundary>
          </Panel>
          <Separator className="sw-sep" aria-label="Resize workspace panel" />
          <Panel id="playground" defaultSize="44%" minSize="25%">
            <PanelBoundary name="playground"><Playground /></PanelBoundary>
          </Panel>
          <Separator className="sw-sep" aria-label="Resize execution panel" />
          <Panel id="execution" defaultSize="38%" minSize="15%" collapsible collapsedSize="0%">
            <PanelBoundary name="execution"><ExecutionPanel /></PanelBoundary>
          </Panel>
        </PanelGroup>
      </Box>
      <SettingsModal />
    </Box>
  );
}

function Connection() {
  const app = useApp();
  // Read on every render (a workspace update re-renders at once), and polled for the rest.
  const [, tick] = useState(0);
  useEffect(() => {
    if (!app.host.connection) return;
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [app]);
  useAtomValue(app.workspaceAtom);
  const state = app.host.connection?.() ?? 'open';
  if (state === 'open') return null;
  return <Text size="xs" c={state === 'closed' ? 'red' : 'yellow'} role="status">{state === 'closed' ? 'disconnected — reconnecting' : 'connecting…'}</Text>;
}
