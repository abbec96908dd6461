/**
 * The notice over the open thread when its file is no longer in the workspace (deleted, or moved
 * away, outside Stepwise: the host watches the workspace folder and pushes `workspace_changed`).
 * Nothing is lost: the window still holds the thread as it was, and "Save it again" writes that
 * copy back as a thread file in the same folder (a new file, with a new id) and opens it.
 */
import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useApp } from '../../state/context';
import { useSession, useThreadMeta } from '../../state/hooks';

/** Shown while the open thread's file is missing from the workspace listing; nothing otherwise. */
export function FileGoneNotice() {
  const app = useApp();
  const session = useSession();
  const meta = useThreadMeta();
  const { entries, loaded } = useAtomValue(app.workspaceAtom);
  const [saving, setSaving] = useState(false);
  if (!session || !meta || !loaded || app.host.presentational) return null;
  if (entries.some((e) => e.path === meta.path)) return null;
  const saveAgain = async () => {
    const t = session.thread;
    const folder = meta.path.split('/').slice(0, -1).join('/');
    setSaving(true);
    try {
      const e = await app.host.call('workspace.create', { folder: folder || undefined, title: t.title, thread: { model: t.model, context: t.context, settings: t.settings } });
      await app.refreshWorkspace();
      await app.openThread(e.path);
    } catch (err) {
      app.fail(`Could not save “${t.title}” again`, err, 'Check that the workspace folder exists and is writable, then try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Alert color="orange" variant="light" title="This thread's file was deleted" role="alert">
      <Text size="sm">
        {meta.path} is no longer in the workspace folder (deleted, or moved away outside Stepwise). This window still holds the thread as it was — nothing is lost
        while it stays open. Save it again to write it back as a thread file.
      </Text>
      <Group mt="xs">
        <Button size="compact-sm" loading={saving} onClick={() => void saveAgain()}>Save it again</Button>
      </Group>
    </Alert>
  );
}
