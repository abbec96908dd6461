/**
 * Opening a workspace thread entry, from the tree or the command palette: a thread that loads
 * opens; a malformed file cannot, so the playground shows its whole load error instead.
 */
import type { WorkspaceEntry } from '../../../shared/protocol/host-api';
import type { AppState } from './app';

/** Opens `entry` (a thread) in `app`, or shows why its file does not load. */
export function openEntry(app: AppState, entry: WorkspaceEntry): void {
  if (entry.error) {
    app.store.set(app.brokenEntryAtom, entry);
    return;
  }
  app.store.set(app.brokenEntryAtom, null);
  void app.openThread(entry.path);
}
