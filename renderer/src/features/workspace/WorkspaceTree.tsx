/**
 * Left panel: folders and threads of the workspace (`workspace.list`). Create (New thread,
 * Mod+N), rename, duplicate, move, delete with confirmation; filter by title; malformed files
 * are listed with their error; an empty workspace offers the example thread. Import: paste JSON
 * (the Import button) or drop a file on the panel (./ImportDialog.tsx).
 */
import { useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { ActionIcon, Box, Button, Group, Menu, Modal, ScrollArea, Select, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import type { WorkspaceEntry } from '../../../../shared/protocol/host-api';
import { useApp } from '../../state/context';
import { useThreadMetaField } from '../../state/hooks';
import { openEntry } from '../../state/open-entry';
import { exampleThread } from '../../sample-thread';
import { ImportDialog, type ImportRequest } from './ImportDialog';

type Dialog =
  | { kind: 'rename'; entry: WorkspaceEntry; value: string }
  | { kind: 'move'; entry: WorkspaceEntry; value: string }
  | { kind: 'delete'; entry: WorkspaceEntry }
  | { kind: 'folder'; value: string }
  | null;

const depth = (p: string): number => p.split('/').length - 1;
const parentOf = (p: string): string => p.split('/').slice(0, -1).join('/');

/** The workspace tree panel. */
export function WorkspaceTree() {
  const app = useApp();
  const { entries, loaded } = useAtomValue(app.workspaceAtom);
  const openPath = useThreadMetaField('path');
  const [filter, setFilter] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [importing, setImporting] = useState<ImportRequest>(null);
  const [dragging, setDragging] = useState(false);
  const readOnly = app.host.presentational;
  const hasFiles = (e: React.DragEvent) => [...e.dataTransfer.types].includes('Files');
  const drop = (e: React.DragEvent) => {
    if (readOnly || !hasFiles(e)) return;
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) file.text().then((text) => setImporting({ text, name: file.name }), (err: Error) => app.fail(`Could not read ${file.name}`, err));
  };
  const [collapsed, setCollapsed] = useState<Set<string>>(() => {
    try {
      // Batches' case threads (evals/) start folded: they are reached from Evaluate.
      return new Set(JSON.parse(localStorage.getItem('stepwise.collapsedFolders') ?? '["evals"]') as string[]);
    } catch {
      return new Set();
    }
  });
  const toggleFolder = (folder: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(folder)) next.delete(folder);
      else next.add(folder);
      localStorage.setItem('stepwise.collapsedFolders', JSON.stringify([...next]));
      return next;
    });

  // Folders with no thread anywhere under them (a thread's working files, say): listed once, as
  // such, not as an open folder with nothing in it; their empty sub-folders are not listed.
  const empty = useMemo(() => emptyFolders(entries), [entries]);
  const shown = useMemo(() => {
    const sorted = [...entries].sort((a, b) => a.path.localeCompare(b.path)).filter((e) => !empty.has(parentOf(e.path)));
    const f = filter.trim().toLowerCase();
    const hidden = (path: string) => {
      for (let p = parentOf(path); p; p = parentOf(p)) if (collapsed.has(p)) return true;
      return false;
    };
    if (!f) return sorted.filter((e) => !hidden(e.path));
    const hits = sorted.filter((e) => e.kind === 'thread' && e.title.toLowerCase().includes(f));
    const folders = new Set<string>();
    for (const h of hits) for (let p = parentOf(h.path); p; p = parentOf(p)) folders.add(p);
    return sorted.filter((e) => hits.includes(e) || (e.kind === 'folder' && folders.has(e.path)));
  }, [entries, filter, collapsed, empty]);

  const act = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      await app.refreshWorkspace();
    } catch (err) {
      app.fail(`Could not ${what}`, err, 'Check the file in the workspace folder, then try again.');
    }
  };

  const newThread = () => void app.newThread();
  const openExample = () =>
    void act('create the example thread', async () => {
      const t = exampleThread();
      const e = await app.host.call('workspace.create', { title: t.title, thread: { model: t.model, context: t.context, settings: t.settings } });
      await app.openThread(e.path);
    });

  const folders = entries.filter((e) => e.kind === 'folder').map((e) => e.path);

  return (
    <Stack gap={6} h="100%" p="xs" aria-label="Workspace panel" data-dropping={dragging || undefined}
      style={{ minHeight: 0, outline: dragging ? '2px dashed var(--mantine-color-blue-5)' : undefined, outlineOffset: -4 }}
      onDragOver={(e) => { if (!readOnly && hasFiles(e)) { e.preventDefault(); setDragging(true); } }}
      onDragLeave={(e) => { if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false); }}
      onDrop={drop}>
      <Group justify="space-between" wrap="nowrap" gap={4}>
        <Text fw={600} size="sm">
          Workspace
        </Text>
        {!readOnly && (
          <Tooltip label="New folder">
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label="New folder" onClick={() => setDialog({ kind: 'folder', value: '' })}>
              <span aria-hidden>+</span>
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      {/* Its own row: the panel's width never clips New thread (docs/ui.md#toolbars). */}
      {!readOnly && (
        <Group gap={6} wrap="nowrap" grow preventGrowOverflow={false}>
          <Button size="compact-sm" onClick={newThread} aria-keyshortcuts="Control+N Meta+N" style={{ minWidth: 0 }}>
            New thread
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setImporting('paste')} style={{ minWidth: 0, flexGrow: 0 }}>
            Import
          </Button>
        </Group>
      )}
      <TextInput size="xs" placeholder="Filter by title" aria-label="Filter threads by title" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />
      <ScrollArea style={{ flex: 1 }} type="auto">
        {loaded && entries.length === 0 && (
          <Stack gap={6} p="xs">
            <Text size="sm" c="dimmed">
              No threads yet — New thread or open an example.
            </Text>
            {!readOnly && (
              <Button size="xs" variant="light" onClick={openExample}>
                Open an example
              </Button>
            )}
          </Stack>
        )}
        {loaded && entries.length > 0 && shown.length === 0 && (
          <Text size="sm" c="dimmed" p="xs">
            No thread title matches “{filter}”.
          </Text>
        )}
        <Box role="tree" aria-label="Workspace">
          {shown.map((e) => (
            <Group key={e.path} gap={2} wrap="nowrap" pl={depth(e.path) * 12} role="treeitem" aria-level={depth(e.path) + 1} aria-selected={openPath === e.path}
              aria-label={`${e.kind === 'folder' ? 'folder' : 'thread'} ${e.title}${e.error ? ', malformed' : ''}${empty.has(e.path) ? ', no threads' : ''}`}
              aria-expanded={e.kind === 'folder' && !empty.has(e.path) ? !collapsed.has(e.path) : undefined}
              style={{ borderRadius: 4, background: openPath === e.path ? 'var(--mantine-color-default-hover)' : undefined }}>
              <Tooltip label={e.error} disabled={!e.error} multiline w={480} position="right" openDelay={300} withinPortal>
              <UnstyledButton
                style={{ flex: 1, minWidth: 0, padding: '3px 6px' }}
                onClick={() => (e.kind === 'folder' ? !empty.has(e.path) && toggleFolder(e.path) : openEntry(app, e))}
                title={e.error ? undefined : e.path}
              >
                <Text size="sm" truncate fw={e.kind === 'folder' ? 600 : 400} c={e.error ? 'red' : undefined}>
                  {e.kind === 'folder' && !empty.has(e.path) && <span aria-hidden>{collapsed.has(e.path) && !filter.trim() ? '▸ ' : '▾ '}</span>}
                  {e.title}
                  {empty.has(e.path) && <Text span size="xs" c="dimmed" fw={400}> — no threads</Text>}
                </Text>
                {e.error && (
                  <Text size="xs" c="red" lineClamp={3}>
                    {e.error}
                  </Text>
                )}
              </UnstyledButton>
              </Tooltip>
              {!readOnly && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" size="sm" aria-label={`Actions for ${e.title}`}>
                      ⋯
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => setDialog({ kind: 'rename', entry: e, value: e.title })}>Rename</Menu.Item>
                    {e.kind === 'thread' && <Menu.Item onClick={() => void act('duplicate', () => app.host.call('workspace.duplicate', { path: e.path }))}>Duplicate</Menu.Item>}
                    <Menu.Item onClick={() => setDialog({ kind: 'move', entry: e, value: parentOf(e.path) })}>Move</Menu.Item>
                    <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', entry: e })}>
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          ))}
        </Box>
      </ScrollArea>
      {dragging && <Text size="xs" c="blue">Drop to import</Text>}
      <ImportDialog request={importing} onClose={() => setImporting(null)} />
      <WorkspaceDialog dialog={dialog} folders={folders} inside={dialog && 'entry' in dialog ? entries.filter((x) => x.path.startsWith(`${dialog.entry.path}/`)).length : 0} onClose={() => setDialog(null)} setDialog={setDialog} act={act} />
    </Stack>
  );
}

/** Paths of the folders with no thread anywhere under them. */
export function emptyFolders(entries: readonly Pick<WorkspaceEntry, 'kind' | 'path'>[]): Set<string> {
  const full = new Set<string>();
  for (const e of entries) if (e.kind === 'thread') for (let p = parentOf(e.path); p; p = parentOf(p)) full.add(p);
  return new Set(entries.filter((e) => e.kind === 'folder' && !full.has(e.path)).map((e) => e.path));
}

function WorkspaceDialog({ dialog, folders, inside, onClose, setDialog, act }: {
  dialog: Dialog;
  folders: string[];
  /** Entries inside a folder being deleted. */
  inside: number;
  onClose: () => void;
  setDialog: (d: Dialog) => void;
  act: (what: string, fn: () => Promise<unknown>) => Promise<void>;
}) {
  const app = useApp();
  if (!dialog) return null;
  const done = (what: string, fn: () => Promise<unknown>) => {
    onClose();
    void act(what, fn);
  };
  if (dialog.kind === 'delete')
    return (
      <Modal opened onClose={onClose} title={`Delete ${dialog.entry.kind} “${dialog.entry.title}”?`} centered>
        <Text size="sm">
          {dialog.entry.kind === 'folder'
            ? inside > 0
              ? `The folder and everything in it (${inside} item${inside === 1 ? '' : 's'}) are removed from the workspace. Their runs stay in the runs folder.`
              : 'The empty folder is removed from the workspace.'
            : 'The file is removed from the workspace. Its runs stay in the runs folder.'}
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={() => done('delete', () => app.host.call('workspace.delete', { path: dialog.entry.path }))}>
            Delete
          </Button>
        </Group>
      </Modal>
    );
  if (dialog.kind === 'move')
    return (
      <Modal opened onClose={onClose} title={`Move “${dialog.entry.title}”`} centered>
        <Select label="To folder" data={[{ value: '', label: '(workspace root)' }, ...folders.filter((f) => f !== dialog.entry.path).map((f) => ({ value: f, label: f }))]}
          value={dialog.value} onChange={(v) => setDialog({ ...dialog, value: v ?? '' })} allowDeselect={false} />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => done('move', () => app.host.call('workspace.move', { path: dialog.entry.path, toFolder: dialog.value }))}>Move</Button>
        </Group>
      </Modal>
    );
  const title = dialog.kind === 'rename' ? `Rename “${dialog.entry.title}”` : 'New folder';
  const submit = () => {
    const v = dialog.value.trim();
    if (!v) return;
    if (dialog.kind === 'rename') done('rename', () => app.host.call('workspace.rename', { path: dialog.entry.path, title: v }));
    else done('create the folder', () => app.host.call('workspace.createFolder', { path: v }));
  };
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <TextInput data-autofocus label={dialog.kind === 'rename' ? 'Title' : 'Folder path'} value={dialog.value}
          error={dialog.value.includes('\\') ? 'Use / between folders' : undefined}
          onChange={(e) => setDialog({ ...dialog, value: e.currentTarget.value })} />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">{dialog.kind === 'rename' ? 'Rename' : 'Create'}</Button>
        </Group>
      </form>
    </Modal>
  );
}
