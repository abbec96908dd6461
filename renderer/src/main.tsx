/**
 * Entry: picks the host adapter. `window.stepwise` (Electron preload) → desktop; `#token=` →
 * web host over WebSocket; `?view` or a dropped/opened thread JSON file → read-only viewer.
 */
import '@mantine/core/styles.css';
import './styles.css';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, Center, FileButton, MantineProvider, Modal, Stack, Text, Title, createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { App } from './App';
import type { HostServices } from './host/types';
import { createDesktopHost, type StepwisePreloadApi } from './host/desktop';
import { createWebHost, tokenFromHash } from './host/web';
import { createViewerHost } from './host/viewer';
import { exampleRun, exampleThread } from './sample-thread';
import type { RunRecord } from '../../shared/protocol/host-api';
import type { Thread } from '../../shared/thread/schema';

const theme = createTheme({
  // Every dialog's × button has an accessible name.
  components: { Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }) },
  primaryColor: 'indigo',
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

function pickHost(): HostServices | null {
  const w = window as unknown as { stepwise?: StepwisePreloadApi };
  if (w.stepwise) return createDesktopHost(w.stepwise);
  const token = tokenFromHash(location.hash);
  if (token) return createWebHost(location.origin, token);
  if (new URLSearchParams(location.search).has('view')) return createViewerHost(exampleThread(), [exampleRun()]);
  return null;
}

function Root() {
  const [host, setHost] = useState<HostServices | null>(pickHost);
  const [error, setError] = useState<string | null>(null);
  const open = (f: File | null) => f && viewerFromFile(f).then(setHost, (e: Error) => setError(e.message));
  if (host) return <App host={host} />;
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
