/** The window: header, and the three resizable panels (workspace · playground · execution). */
import { useEffect, useMemo, useState } from 'react';
import { Provider as JotaiProvider, useAtom, useSetAtom } from 'jotai';
import { Box, Button, Group, Text, useMantineColorScheme, useComputedColorScheme } from '@mantine/core';
import { Group as PanelGroup, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import type { HostServices } from './host/types';
import { AppState } from './state/app';
import { followPlace } from './state/place-sync';
import { AppStateProvider, useApp } from './state/context';
import { WorkspaceTree } from './features/workspace/WorkspaceTree';
import { PlaygroundPane } from './features/playground/PlaygroundPane';
import { CommandPalette } from './features/palette/CommandPalette';
import { ShortcutsHelp } from './features/palette/ShortcutsHelp';
import { playgroundLayoutAtom } from './state/layout';
import { paletteOpenAtom } from './state/overlays';
import { ExecutionPanel } from './features/execution/ExecutionPanel';
import { SettingsModal } from './features/settings/SettingsModal';
import { ErrorNotice } from './ui/ErrorNotice';
import { useShortcuts } from './shortcuts';
import { PanelBoundary } from './ui/ErrorBoundary';
import { canEdit, useConnection } from './host/use-connection';
import type { ConnectionStatus } from './host/types';
import { ConnectionBanner } from './features/connection/ConnectionBanner';
import { EvaluateView } from './features/eval/EvaluateView';
import { HeaderActions } from './HeaderActions';

/**
 * Root component for a host; `initialPath` opens that thread at start (viewer). An editing host
 * keeps the window's place in the address (state/place-sync.ts); `placeStorage` also keeps the
 * last place there, for a window that always starts at the same address (desktop).
 */
export function App({ host, initialPath, placeStorage }: { host: HostServices; initialPath?: string; placeStorage?: Storage }) {
  const [app] = useState(() => new AppState(host));
  useEffect(() => {
    let stopPlace = () => {};
    let live = true;
    void app.start().then(async () => {
      if (live && !host.presentational) stopPlace = followPlace(app, window, { storage: placeStorage });
      const first = initialPath ?? (host.presentational ? app.store.get(app.workspaceAtom).entries.find((e) => e.kind === 'thread')?.path : undefined);
      if (first) {
        await app.openThread(first);
        if (host.presentational) {
          const refs = app.store.get(app.runRefsAtom);
          if (refs[0]) await app.openRecord(refs[0].id);
        }
      }
    });
    return () => {
      live = false;
      stopPlace();
      app.stop();
    };
  }, [app, host, initialPath, placeStorage]);
  return (
    <AppStateProvider app={app}>
      <JotaiProvider store={app.store}>
        <Shell />
      </JotaiProvider>
    </AppStateProvider>
  );
}

function Shell() {
  const app = useApp();
  const [error, setError] = useAtom(app.errorAtom);
  const [evaluating, setEvaluating] = useAtom(app.evalOpenAtom);
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const layout = useDefaultLayout({ id: 'stepwise-main', storage: localStorage });
  const nextTheme = computed === 'dark' ? 'light' : 'dark';
  const env = useMemo(() => ({ nextTheme, toggleTheme: () => setColorScheme(nextTheme) }) as const, [nextTheme, setColorScheme]);
  useShortcuts(app, env);
  const [layoutChoice, setLayoutChoice] = useAtom(playgroundLayoutAtom);
  const openPalette = useSetAtom(paletteOpenAtom);
  const connection = useConnection(app.host);
  const ended = connection.state === 'ended';
  useEffect(() => {
    // Failures on the way ("lost the connection … try again") are moot once the session ended.
    if (ended) setError(null);
  }, [ended, setError]);
  // Edits need the host: while it is out of reach the playground is read-only (inert).
  const paused = !app.host.presentational && !canEdit(connection);
  return (
    <Box style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Group component="header" h={38} px="sm" gap="sm" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}>
        <Text fw={700} size="sm">Stepwise</Text>
        <Text size="xs" c="dimmed">build and debug agents step by step</Text>
        {app.host.presentational && <Text size="xs" c="orange">read-only viewer</Text>}
        <div style={{ flex: 1 }} />
        <Connection status={connection} />
        {!app.host.presentational && (
          <Button size="compact-sm" variant={evaluating ? 'light' : 'subtle'} color={evaluating ? undefined : 'gray'} aria-pressed={evaluating} onClick={() => setEvaluating(!evaluating)}>Evaluate</Button>
        )}
        <HeaderActions layoutChoice={layoutChoice} onLayout={setLayoutChoice} scheme={computed} onTheme={() => setColorScheme(nextTheme)}
          onPalette={() => openPalette(true)} onSettings={app.host.presentational ? undefined : () => app.store.set(app.settingsOpenAtom, true)} />
      </Group>
      {(connection.state === 'reconnecting' || ended) && (
        <Box p="xs" style={{ flexShrink: 0 }}>
          <ConnectionBanner status={connection} />
        </Box>
      )}
      {error && (
        <Box p="xs" style={{ flexShrink: 0 }}>
          <ErrorNotice {...error} onClose={() => setError(null)} />
        </Box>
      )}
      {evaluating && (
        <Box style={{ flex: 1, minHeight: 0 }}>
          <PanelBoundary name="evaluate"><EvaluateView /></PanelBoundary>
        </Box>
      )}
      <Box style={{ flex: 1, minHeight: 0, display: evaluating ? 'none' : undefined }}>
        <PanelGroup orientation="horizontal" defaultLayout={layout.defaultLayout} onLayoutChanged={layout.onLayoutChanged} style={{ height: '100%' }}>
          <Panel id="workspace" defaultSize="18%" minSize="10%" collapsible collapsedSize="0%">
            <PanelBoundary name="workspace"><WorkspaceTree /></PanelBoundary>
          </Panel>
          <Separator className="sw-sep" aria-label="Resize workspace panel" />
          <Panel id="playground" defaultSize="44%" minSize="25%">
            <div inert={paused} aria-disabled={paused || undefined} style={{ height: '100%', opacity: paused ? 0.7 : undefined }}>
              <PanelBoundary name="playground"><PlaygroundPane /></PanelBoundary>
            </div>
          </Panel>
          <Separator className="sw-sep" aria-label="Resize execution panel" />
          <Panel id="execution" defaultSize="38%" minSize="15%" collapsible collapsedSize="0%">
            <PanelBoundary name="execution"><ExecutionPanel /></PanelBoundary>
          </Panel>
        </PanelGroup>
      </Box>
      <SettingsModal />
      <CommandPalette env={env} />
      <ShortcutsHelp env={env} />
    </Box>
  );
}

/** The header's connection word: nothing while connected. */
function Connection({ status }: { status: ConnectionStatus }) {
  if (status.state === 'open') return null;
  const [text, color] =
    status.state === 'ended' ? ['session ended', 'red'] : status.state === 'reconnecting' ? ['disconnected — reconnecting', 'red'] : ['connecting…', 'yellow'];
  return <Text size="xs" c={color} role="status">{text}</Text>;
}
