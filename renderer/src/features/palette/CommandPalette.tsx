/**
 * The command palette (Mod+K, cmdk): every window action that applies now, with its shortcut,
 * and every thread of the workspace by title, to switch to it. Matching is ./match.ts: each typed
 * word matches one word of an item (cmdk's own match spread a word over a whole label).
 */
import { useAtom, useAtomValue } from 'jotai';
import { Command } from 'cmdk';
import { Kbd, Modal, Text } from '@mantine/core';
import { useApp } from '../../state/context';
import { appActions, type ActionEnv } from '../../actions';
import { SHORTCUTS, keyLabel } from '../../shortcuts';
import { paletteOpenAtom } from '../../state/overlays';
import { openEntry } from '../../state/open-entry';
import { modKey } from '../../ui/format';
import { paletteMatch } from './match';
import './palette.css';

/** The palette; `env` as for the shortcuts. */
export function CommandPalette({ env }: { env: ActionEnv }) {
  const app = useApp();
  const [open, setOpen] = useAtom(paletteOpenAtom);
  const { entries } = useAtomValue(app.workspaceAtom);
  // Read when shown: whether Run or Continue, Stop… apply to the thread as it is now.
  useAtomValue(app.sessionAtom);
  const mod = modKey();
  if (!open) return null;
  const close = () => setOpen(false);
  const actions = appActions(app, env).filter((a) => a.enabled && a.id !== 'palette');
  const threads = entries.filter((e) => e.kind === 'thread');
  const then = (run: () => void) => () => {
    close();
    run();
  };
  return (
    <Modal opened onClose={close} withCloseButton={false} padding={0} size="lg" yOffset="12vh" title={null} aria-label="Command palette">
      <Command label="Command palette" className="sw-palette" loop filter={paletteMatch}>
        <Command.Input autoFocus placeholder="Type a command or a thread title…" aria-label="Command" />
        <Command.List>
          <Command.Empty>Nothing matches — try a thread title or an action (Run, Settings…).</Command.Empty>
          <Command.Group heading="Actions">
            {actions.map((a) => {
              const keys = SHORTCUTS.find((s) => s.action === a.id)?.keys[0];
              return (
                <Command.Item key={a.id} value={a.label} onSelect={then(a.run)} aria-label={a.label}>
                  <span>{a.label}</span>
                  {keys && <Kbd size="xs">{keyLabel(keys, mod)}</Kbd>}
                </Command.Item>
              );
            })}
          </Command.Group>
          <Command.Group heading="Threads">
            {threads.map((e) => (
              <Command.Item key={e.path} value={`thread ${e.path}`} keywords={[e.title]} onSelect={then(() => openEntry(app, e))} aria-label={`thread ${e.title}${e.error ? ', does not load' : ''}`}>
                <span>{e.title}</span>
                <Text span size="xs" c={e.error ? 'red' : 'dimmed'}>{e.error ? 'does not load' : e.path.includes('/') ? e.path.slice(0, e.path.lastIndexOf('/')) : ''}</Text>
              </Command.Item>
            ))}
          </Command.Group>
        </Command.List>
      </Command>
    </Modal>
  );
}
