/**
 * Entry: picks the host adapter. `window.stepwise` (Electron preload) → desktop; a token (in
 * the URL the web host printed, or kept in this tab since: see host/web-token.ts) → web host
 * over WebSocket; `?view` or a dropped/opened thread JSON file → read-only viewer.
 */
import '@mantine/core/styles.css';
import './styles.css';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, Center, Combobox, FileButton, MantineProvider, Modal, Stack, Text, Title, createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { App } from './App';
import type { HostServices } from './host/types';
import { createDesktopHost, type StepwisePreloadApi } from './host/desktop';
import { createWebHost } from './host/web';
import { takeToken } from './host/web-token';
import { createViewerHost } from './host/viewer';
import { exampleRun, exampleThread } from './sample-thread';
import type { RunRecord } from '../../shared/protocol/host-api';
import type { Thread } from '../../shared/thread/schema';

const theme = createTheme({
  components: {
    // Every dialog's × button has an accessible name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A select's list exists only while open: a hidden one kept mounted is placed by
    // floating-ui when it mounts, which lays out the whole page (the run picker appearing as a
    // run starts cost the run's first task 11 ms).
    Combobox: Combobox.extend({ defaultProps: { keepMounted: false } }),
  },
  primaryColor: 'indigo',
  // White on the filled buttons meets WCAG AA (4.5:1): shade 6 gave 4.1:1 (docs/ui.md#colour).
  primaryShade: { light: 7, dark: 8 },
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  defaultRadius: 'sm',
});

/** Read a dropped/opened file: a Thread, or `{ thread, runs }` as exported. */
async function viewerFromFile(file: File): Promise<HostServices> {
  const text = await file.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file.name} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const d = data as { thread?: Thread; runs?: RunRecord[] } & Partial<Thread>;
  const thread = d.thread ?? (d as Thread);
  if (!thread || typeof thread !== 'object' || !thread.context || !Array.isArray(thread.context.messages))
    throw new Error(`${file.name} is not a Stepwise thread: /context/messages is missing.`);
  return createViewerHost(thread, d.runs ?? []);
}

/** The tab's sessionStorage; undefined where the browser refuses it (storage disabled). */
function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Read once, at load: the URL loses the token as it is read. */
const pageToken = (window as unknown as { stepwise?: unknown }).stepwise ? undefined : takeToken({ location, history, storage: sessionStorageOrUndefined() });

/** The desktop window's localStorage (kept across starts); undefined in a browser or where refused. */
function desktopStorage(): Storage | undefined {
  if (!(window as unknown as { stepwise?: unknown }).stepwise) return undefined;
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function pickHost(): HostServices | null {
  const w = window as unknown as { stepwise?: StepwisePreloadApi };
  if (w.stepwise) return createDesktopHost(w.stepwise);
  if (pageToken) return createWebHost(location.origin, pageToken);
  if (new URLSearchParams(location.search).has('view')) return createViewerHost(exampleThread(), [exampleRun()]);
  return null;
}

function Root() {
  const [host, setHost] = useState<HostServices | null>(pickHost);
  const [error, setError] = useState<string | null>(null);
  const open = (f: File | null) => f && viewerFromFile(f).then(setHost, (e: Error) => setError(e.message));
  if (host) return <App host={host} placeStorage={host.presentational ? undefined : desktopStorage()} />;
  return (
    <Center h="100vh" onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); void open(e.dataTransfer.files[0] ?? null); }}>
      <Stack align="center" gap="xs" maw={480}>
        <Title order={3}>Stepwise viewer</Title>
        <Text size="sm" c="dimmed" ta="center">Drop a thread JSON file here, or open one, to view it read-only. To edit and run, start Stepwise (desktop) or its web host, which opens this page with a token.</Text>
        <FileButton accept="application/json,.json" onChange={(f) => void open(f)}>{(p) => <Button {...p}>Open a thread file</Button>}</FileButton>
        <Button variant="subtle" onClick={() => setHost(createViewerHost(exampleThread(), [exampleRun()]))}>Open the example</Button>
        {error && <Text size="sm" c="red" role="alert">{error}</Text>}
      </Stack>
    </Center>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={localStorageColorSchemeManager({ key: 'stepwise-color-scheme' })}>
      <Root />
    </MantineProvider>
  </StrictMode>,
);
