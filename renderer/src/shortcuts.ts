/**
 * Window shortcuts, from one table ({@link SHORTCUTS}): the key handler binds exactly these and
 * the help sheet (`?`) lists exactly these, so the two cannot disagree. Mod is Ctrl, or Cmd on
 * macOS. Esc (Stop) and `?` (help) do not act while typing in a field or an editor; the Mod
 * shortcuts do (Undo / Redo inside editors too: the thread's history is the one history), but
 * Undo, Redo and Esc leave an open dialog alone, and what needs the host waits while it is out
 * of reach (actions.ts `enabled`).
 */
import { useEffect } from 'react';
import type { AppState } from './state/app';
import { appActions, type ActionEnv, type ActionId } from './actions';

/** One binding: the action it runs, its keys (`Mod+Shift+Enter`, `Ctrl+Y`, `Escape`, `?`), when it applies. */
export interface Shortcut {
  action: ActionId;
  keys: readonly string[];
  /** Also while typing in a field or an editor. */
  whileTyping: boolean;
  /** Also while a dialog is open. */
  inDialogs: boolean;
}

/** Every window shortcut, in the order the help sheet lists them. */
export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'run', keys: ['Mod+Enter'], whileTyping: true, inDialogs: true },
  { action: 'runAllTools', keys: ['Mod+Shift+Enter'], whileTyping: true, inDialogs: true },
  { action: 'stop', keys: ['Escape'], whileTyping: false, inDialogs: false },
  { action: 'undo', keys: ['Mod+Z'], whileTyping: true, inDialogs: false },
  { action: 'redo', keys: ['Mod+Shift+Z', 'Ctrl+Y'], whileTyping: true, inDialogs: false },
  { action: 'newThread', keys: ['Mod+N'], whileTyping: true, inDialogs: true },
  { action: 'palette', keys: ['Mod+K'], whileTyping: true, inDialogs: true },
  { action: 'help', keys: ['?'], whileTyping: false, inDialogs: false },
];

/**
 * Whether `e` is the key combination `combo` (`Mod+Shift+Enter`): the named modifiers down and
 * no other (Shift is not checked for a printed symbol such as `?`, which needs it on some layouts).
 */
export function matchesKey(combo: string, e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): boolean {
  const parts = combo.split('+');
  const key = parts.pop()!;
  const mods = new Set(parts);
  const symbol = key.length === 1 && !/[a-z0-9]/i.test(key);
  if (e.altKey) return false;
  if (mods.has('Mod') ? !(e.ctrlKey || e.metaKey) : mods.has('Ctrl') ? !e.ctrlKey || e.metaKey : e.ctrlKey || e.metaKey) return false;
  if (!symbol && mods.has('Shift') !== e.shiftKey) return false;
  return key.length === 1 ? e.key.toLowerCase() === key.toLowerCase() : e.key === key;
}

/** `combo` as the help sheet shows it, Mod spelled for this platform (`Ctrl+Shift+Enter`, `⌘+K`). */
export function keyLabel(combo: string, mod: string): string {
  return combo.split('+').map((p) => (p === 'Mod' ? mod : p === 'Escape' ? 'Esc' : p)).join('+');
}

/**
 * Esc inside a text field, an editor or an open dropdown belongs to that field (close the
 * list, leave the editor), never to Stop: typed answers must not be cancelled with the run.
 */
function editing(target: EventTarget | null): boolean {
  const el = target instanceof Element ? target : null;
  if (!el) return false;
  // An open dropdown keeps the focus on its combobox input, so the target tells it too.
  return !!el.closest('input, textarea, select, [contenteditable="true"], [role="combobox"], [role="listbox"]');
}

/** Install the window shortcuts of {@link SHORTCUTS}; `env` gives the actions what lives outside the AppState. */
export function useShortcuts(app: AppState, env: ActionEnv): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const hit = SHORTCUTS.find((s) => s.keys.some((k) => matchesKey(k, e)));
      if (!hit) return;
      if (!hit.whileTyping && editing(e.target)) return;
      if (!hit.inDialogs && document.querySelector('[role="dialog"]')) return;
      const action = appActions(app, env).find((a) => a.id === hit.action);
      if (!action?.enabled) return;
      e.preventDefault();
      action.run();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [app, env]);
}
