/**
 * The window's actions, once: what the shortcuts (shortcuts.ts) and the command palette run.
 * Labels are the interface conventions' action names (docs/architecture.md#layout); `enabled`
 * says whether the action applies now (a thread is open, the host is in reach, a run runs…).
 */
import type { AppState } from './state/app';
import { runOffer } from './features/playground/run-state';
import { compareRequestAtom, paletteOpenAtom, shortcutsHelpOpenAtom } from './state/overlays';
import { playgroundLayoutAtom } from './state/layout';

export type ActionId = 'run' | 'stop' | 'runAllTools' | 'undo' | 'redo' | 'newThread' | 'autoRun' | 'compare' | 'settings' | 'theme' | 'layout' | 'palette' | 'help';

/** One action as the palette lists it and a shortcut runs it. */
export interface Action {
  id: ActionId;
  label: string;
  enabled: boolean;
  run(): void;
}

/** What the actions need besides the AppState (the theme lives in Mantine's context). */
export interface ActionEnv {
  toggleTheme(): void;
  /** The theme the toggle switches to, for its label. */
  nextTheme: 'light' | 'dark';
}

/** The actions as they stand now, in the palette's order. */
export function appActions(app: AppState, env: ActionEnv): Action[] {
  const s = app.session;
  const reachable = (app.host.connection?.().state ?? 'open') === 'open';
  const editable = !!s && !s.readOnly && reachable;
  const t = s?.thread;
  const offer = t ? runOffer(t) : undefined;
  const auto = !!t?.settings?.autoRunTools;
  const running = !!s?.meta.runningRunId;
  const sideBySide = app.store.get(playgroundLayoutAtom) === 'side-by-side';
  return [
    {
      id: 'run',
      label: offer?.primary ?? 'Run',
      enabled: editable,
      run: () => {
        if (!t || !offer?.canPrimary || app.store.get(app.invalidFieldsAtom).size > 0) return; // an edited field does not parse yet
        void app.startRun(auto ? 'react' : 'step', auto ? { maxTurns: t.settings?.maxTurns } : {});
      },
    },
    { id: 'stop', label: 'Stop', enabled: running, run: () => void app.cancelRun() },
    {
      id: 'runAllTools',
      label: 'Run all tools',
      enabled: editable,
      run: () => {
        if (offer?.pending.length && app.store.get(app.invalidFieldsAtom).size === 0) void app.startRun('tool', { toolCallIds: offer.pending.map((c) => c.id) });
      },
    },
    { id: 'undo', label: 'Undo', enabled: !!s && reachable, run: () => s?.undo() },
    { id: 'redo', label: 'Redo', enabled: !!s && reachable, run: () => s?.redo() },
    { id: 'newThread', label: 'New thread', enabled: reachable && !app.host.presentational, run: () => void app.newThread() },
    {
      id: 'autoRun',
      label: `Auto-run tools: turn ${auto ? 'off' : 'on'}`,
      enabled: editable && !running,
      run: () => s?.edit((d) => void (d.settings = { ...(d.settings ?? {}), autoRunTools: !auto })),
    },
    { id: 'compare', label: 'Compare runs', enabled: !!s, run: () => app.store.set(compareRequestAtom, (n) => n + 1) },
    { id: 'settings', label: 'Settings', enabled: !app.host.presentational, run: () => app.store.set(app.settingsOpenAtom, true) },
    { id: 'theme', label: `Switch to ${env.nextTheme} theme`, enabled: true, run: env.toggleTheme },
    { id: 'layout', label: sideBySide ? 'Stacked layout' : 'Side-by-side layout', enabled: true, run: () => app.store.set(playgroundLayoutAtom, sideBySide ? 'stacked' : 'side-by-side') },
    { id: 'palette', label: 'Command palette', enabled: true, run: () => app.store.set(paletteOpenAtom, (o) => !o) },
    { id: 'help', label: 'Keyboard shortcuts', enabled: true, run: () => app.store.set(shortcutsHelpOpenAtom, true) },
  ];
}
