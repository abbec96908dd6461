/** The help sheet (`?`): every window shortcut, listed from the one table the key handler binds (shortcuts.ts). */
import { useAtom } from 'jotai';
import { Group, Kbd, Modal, Table, Text } from '@mantine/core';
import { useApp } from '../../state/context';
import { appActions, type ActionEnv } from '../../actions';
import { SHORTCUTS, keyLabel } from '../../shortcuts';
import { shortcutsHelpOpenAtom } from '../../state/overlays';
import { modKey } from '../../ui/format';

/** Labels an action carries in the sheet where the live label names one state only. */
const SHEET_LABEL: Partial<Record<string, string>> = { run: 'Run / Continue' };

/** The sheet; `env` as for the shortcuts (the labels come from the actions). */
export function ShortcutsHelp({ env }: { env: ActionEnv }) {
  const app = useApp();
  const [open, setOpen] = useAtom(shortcutsHelpOpenAtom);
  if (!open) return null;
  const mod = modKey();
  const actions = appActions(app, env);
  return (
    <Modal opened onClose={() => setOpen(false)} title="Keyboard shortcuts" size="md">
      <Table aria-label="Keyboard shortcuts">
        <Table.Tbody>
          {SHORTCUTS.map((s) => (
            <Table.Tr key={s.action}>
              <Table.Td>{SHEET_LABEL[s.action] ?? actions.find((a) => a.id === s.action)?.label ?? s.action}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {s.keys.map((k) => <Kbd key={k} size="xs">{keyLabel(k, mod)}</Kbd>)}
                </Group>
              </Table.Td>
              <Table.Td><Text size="xs" c="dimmed">{s.whileTyping ? '' : 'not while typing'}</Text></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
