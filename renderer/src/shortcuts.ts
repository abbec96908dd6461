/**
 * Window shortcuts (docs/architecture.md#interface-conventions): Mod+Enter Run/Continue, Mod+Shift+Enter Run all tools, Esc Stop
 * (not while typing in a field or an editor), Mod+Z / Mod+Shift+Z Undo/Redo (also inside
 * editors: the thread's history is the one history),
 * Mod+N New thread. Mod is Ctrl, or Cmd on macOS. None of the Mod shortcuts act while the
 * host is out of reach (the playground is read-only then).
 */
import { useEffect } from 'react';
import type { AppState } from './state/app';
import { runOffer } from './features/playground/run-state';

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

/** Install the window shortcuts; `newThread` is the workspace's create action. */
export function useShortcuts(app: AppState, newThread: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const s = app.session;
      const key = e.key.toLowerCase();
      const modalOpen = !!document.querySelector('[role="dialog"]');
      if (e.key === 'Escape' && !modalOpen && s?.meta.runningRunId && !editing(e.target)) {
        e.preventDefault();
        void app.cancelRun();
        return;
      }
      if (!mod || e.altKey) return;
      // Out of reach of the host (reconnecting, session ended): no edit, run or new thread.
      if ((app.host.connection?.().state ?? 'open') !== 'open') return;
      if (key === 'z' && s && !modalOpen) {
        e.preventDefault();
        if (e.shiftKey) s.redo();
        else s.undo();
      } else if (key === 'y' && e.ctrlKey && s && !modalOpen) {
        e.preventDefault();
        s.redo();
      } else if (e.key === 'Enter' && s && !s.readOnly) {
        e.preventDefault();
        if (app.store.get(app.invalidFieldsAtom).size > 0) return; // an edited field does not parse yet
        const t = s.thread;
        const offer = runOffer(t);
        if (e.shiftKey) {
          if (offer.pending.length) void app.startRun('tool', { toolCallIds: offer.pending.map((c) => c.id) });
        } else if (offer.canPrimary) {
          const auto = !!t.settings?.autoRunTools;
          void app.startRun(auto ? 'react' : 'step', auto ? { maxTurns: t.settings?.maxTurns } : {});
        }
      } else if (key === 'n' && !e.shiftKey && !app.host.presentational) {
        e.preventDefault();
        newThread();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [app, newThread]);
}
