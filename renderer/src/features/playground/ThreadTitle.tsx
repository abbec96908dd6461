/**
 * The playground header's thread title, with Rename: a new title renames the thread's file through
 * `workspace.rename`, the same path as the workspace tree's Rename, so the tree, the header and the
 * file name keep one name (the host writes the new title into the open thread).
 */
import { useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { ActionIcon, TextInput, Title, Tooltip } from '@mantine/core';
import { useApp } from '../../state/context';
import { useSession, useThreadMeta } from '../../state/hooks';

/** The title heading; `readOnly` hides Rename (a running thread, the viewer). */
export function ThreadTitle({ title, readOnly }: { title: string; readOnly: boolean }) {
  const app = useApp();
  const session = useSession();
  const meta = useThreadMeta();
  const entries = useAtomValue(app.workspaceAtom).entries;
  const [draft, setDraft] = useState<string | null>(null);
  // Enter, Escape and the blur that may follow them end one edit once.
  const ended = useRef(false);
  const start = () => {
    ended.current = false;
    setDraft(title);
  };
  if (draft === null || readOnly || !session) {
    return (
      <>
        <Title order={5} style={{ flex: 1, minWidth: 0 }} lineClamp={1}>{title}</Title>
        {!readOnly && session && (
          <Tooltip label="Rename the thread: its file and its workspace entry take the new title">
            <ActionIcon size="sm" variant="subtle" aria-label="Edit thread title" onClick={start}>✎</ActionIcon>
          </Tooltip>
        )}
      </>
    );
  }
  const end = (save: boolean) => {
    if (ended.current) return;
    ended.current = true;
    setDraft(null);
    if (save) void rename(draft.trim());
  };
  const rename = async (next: string) => {
    if (!next || next === title) return;
    // The file as the workspace lists it now (the tree may have moved it since it was opened).
    const path = entries.find((e) => e.kind === 'thread' && e.id === session.id)?.path ?? meta?.path;
    if (!path) return app.fail('Could not rename the thread', new Error('Its file is not in the workspace list.'), 'Refresh the workspace, then rename it from the tree.');
    try {
      await app.host.call('workspace.rename', { path, title: next });
      await app.refreshWorkspace();
    } catch (err) {
      app.fail(`Could not rename “${title}”`, err, 'Choose another title, or check the file in the workspace folder.');
    }
  };
  return (
    <TextInput size="xs" style={{ flex: 1, minWidth: 0 }} aria-label="Thread title" value={draft} autoFocus
      onChange={(e) => setDraft(e.currentTarget.value)} onBlur={() => end(true)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') end(true);
        else if (e.key === 'Escape') end(false);
      }} />
  );
}
