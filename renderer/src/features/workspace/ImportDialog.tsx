/**
 * Import into the workspace (`workspace.import`): JSON pasted here, or a file dropped on the
 * workspace panel or picked. The result says which format was detected, how many run records
 * came with it, and lists what could not be kept (each with its place in the document).
 */
import { useEffect, useState } from 'react';
import { Alert, Button, FileButton, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { HostResult } from '../../../../shared/protocol/host-api';
import { useApp } from '../../state/context';

type Outcome = HostResult<'workspace.import'>;

/** What to import: a file's text (dropped or picked), or nothing yet (the paste box). */
export type ImportRequest = { text: string; name?: string } | 'paste' | null;

/** The Import dialog; a file request imports at once and shows the outcome. */
export function ImportDialog({ request, onClose }: { request: ImportRequest; onClose: () => void }) {
  const app = useApp();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (doc: { text: string; name?: string }) => {
    setBusy(true);
    setError(null);
    try {
      const r = await app.host.call('workspace.import', doc.name ? { text: doc.text, name: doc.name } : { text: doc.text });
      setOutcome(r);
      await app.refreshWorkspace();
      await app.openThread(r.entry.path);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    setOutcome(null);
    setError(null);
    setText('');
    if (request && request !== 'paste') void run(request);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one import per request
  }, [request]);

  if (!request) return null;
  const pick = (file: File | null) => {
    if (!file) return;
    file.text().then((t) => run({ text: t, name: file.name }), (err: Error) => setError(`Could not read ${file.name}: ${err.message}`));
  };
  return (
    <Modal opened onClose={onClose} title="Import" centered size="lg">
      {outcome ? (
        <Stack gap="xs" aria-label="Import result">
          <Text size="sm">
            Imported “{outcome.entry.title}” from {outcome.formatName === 'Stepwise thread' ? 'a Stepwise thread (as a copy)' : `an ${outcome.formatName}`}
            {outcome.runs ? `, with ${outcome.runs} run record${outcome.runs === 1 ? '' : 's'}` : ''}.
          </Text>
          <Text size="sm" fw={500}>Detected format: {outcome.formatName}</Text>
          {outcome.notKept.length === 0 ? (
            <Text size="sm" c="dimmed">Everything was kept.</Text>
          ) : (
            <>
              <Text size="sm" fw={500}>Not kept ({outcome.notKept.length}):</Text>
              <List size="xs" aria-label="Not kept" spacing={2}>
                {outcome.notKept.map((n, i) => <List.Item key={i}><Text size="xs" ff="monospace" style={{ wordBreak: 'break-word' }}>{n}</Text></List.Item>)}
              </List>
            </>
          )}
          <Group justify="flex-end"><Button onClick={onClose}>Done</Button></Group>
        </Stack>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            A Stepwise thread, an LLM Space thread file, or an OpenAI Chat / Responses or Anthropic Messages request body. You can also drop a file on the workspace.
          </Text>
          {request === 'paste' && (
            <Textarea label="JSON to import" autosize minRows={6} maxRows={16} styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
              value={text} onChange={(e) => setText(e.currentTarget.value)} data-autofocus />
          )}
          {error && <Alert color="red" title="Could not import" role="alert"><Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{error}</Text></Alert>}
          <Group justify="space-between">
            <FileButton onChange={pick} accept="application/json,.json,.jsonc,.txt">
              {(props) => <Button variant="default" {...props} disabled={busy}>Choose file…</Button>}
            </FileButton>
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>Cancel</Button>
              {request === 'paste' && <Button onClick={() => void run({ text })} loading={busy} disabled={!text.trim()}>Import</Button>}
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
