/**
 * Keeps a window's place (place.ts: open thread, shown run, selected node) in its address, so a
 * reload, a new tab opened on the address, or the desktop window at its next start comes back to
 * it, and Back / Forward move between the threads and runs opened in the window. Opening another
 * thread or showing another run adds a history entry; selecting a node or a rename replaces the
 * current one. Where `storage` is given (the desktop app, whose window always starts at the same
 * address), the last place is also kept there and used when the address names none.
 */
import type { AppState } from './app';
import { hashWithPlace, placeFromHash, placeFromJson, samePlace, type Place } from './place';

/** What {@link followPlace} needs of the window (window.location, history, popstate). */
export interface PlaceWindow {
  location: { hash: string; pathname: string; search: string };
  history: { readonly state: unknown; pushState(state: unknown, unused: string, url?: string | null): void; replaceState(state: unknown, unused: string, url?: string | null): void };
  addEventListener(type: 'popstate', listener: () => void): void;
  removeEventListener(type: 'popstate', listener: () => void): void;
}

/** Storage key of the last place (desktop). */
export const PLACE_STORAGE_KEY = 'stepwise.place';

/** Where the window is now. */
export function currentPlace(app: AppState): Place {
  const s = app.session;
  if (!s) return {};
  const run = app.store.get(app.shownRunAtom) ?? undefined;
  const sel = app.store.get(app.selectedAtom);
  const place: Place = { thread: s.meta.path };
  if (run) place.run = run;
  if (run && sel && sel.runId === run) place.node = sel.nodeId;
  return place;
}

/**
 * Go to `place`: open its thread (unless open), show its run (a live one, or a stored one
 * read-only) and select its node. What cannot be found is reported by the window as usual
 * ("Could not open …") and the rest stays as it is.
 */
export async function goToPlace(app: AppState, place: Place): Promise<void> {
  if (!place.thread) return;
  if (app.session?.meta.path !== place.thread) await app.openThread(place.thread);
  const s = app.session;
  if (!s || s.meta.path !== place.thread) return;
  if (!place.run) {
    app.store.set(app.selectedAtom, null);
    if (app.store.get(app.shownRunAtom) !== s.meta.runningRunId) app.showRun(s.meta.runningRunId ?? null);
    return;
  }
  if (app.store.get(app.shownRunAtom) !== place.run) await app.openRecord(place.run);
  if (app.store.get(app.shownRunAtom) !== place.run) return;
  app.store.set(app.selectedAtom, place.node ? { runId: place.run, nodeId: place.node } : null);
}

/**
 * Restore the place the address (else `storage`) names, then follow the window's place into the
 * address. Returns the stop (listeners removed).
 */
export function followPlace(app: AppState, win: PlaceWindow, opts: { storage?: Pick<Storage, 'getItem' | 'setItem'> } = {}): () => void {
  let stopped = false;
  let applying = true;
  let last: Place = {};
  let queued = false;
  const offs: (() => void)[] = [];

  const urlFor = (place: Place) => `${win.location.pathname}${win.location.search}${hashWithPlace(win.location.hash, place)}`;
  const write = (mode: 'auto' | 'replace'): void => {
    if (stopped || applying) return;
    const now = currentPlace(app);
    if (samePlace(now, last) && samePlace(placeFromHash(win.location.hash), now)) return;
    // A new entry for another thread or run (Back returns to the one before); else the same entry.
    const entry = mode === 'auto' && !!last.thread && (now.thread !== last.thread || now.run !== last.run);
    try {
      if (entry) win.history.pushState(null, '', urlFor(now));
      else win.history.replaceState(win.history.state, '', urlFor(now));
    } catch {
      // a browser that refuses history changes (too many in a short time): the next change writes it
    }
    last = now;
    try {
      opts.storage?.setItem(PLACE_STORAGE_KEY, JSON.stringify(now));
    } catch {
      // storage full or disabled: the address still holds the place
    }
  };
  const schedule = (): void => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      write('auto');
    });
  };

  let offMeta: (() => void) | undefined;
  const watchSession = (): void => {
    offMeta?.();
    const s = app.session;
    offMeta = s ? app.store.sub(s.metaAtom, schedule) : undefined;
  };
  offs.push(app.store.sub(app.sessionAtom, () => {
    watchSession();
    schedule();
  }));
  offs.push(app.store.sub(app.shownRunAtom, schedule));
  offs.push(app.store.sub(app.selectedAtom, schedule));
  offs.push(() => offMeta?.());
  watchSession();

  const arrive = async (place: Place): Promise<void> => {
    applying = true;
    try {
      await goToPlace(app, place);
    } finally {
      applying = false;
      last = currentPlace(app);
      write('replace');
    }
  };
  const onPop = (): void => void arrive(placeFromHash(win.location.hash));
  win.addEventListener('popstate', onPop);
  offs.push(() => win.removeEventListener('popstate', onPop));

  let start = placeFromHash(win.location.hash);
  if (!start.thread && opts.storage) {
    try {
      start = placeFromJson(opts.storage.getItem(PLACE_STORAGE_KEY));
    } catch {
      start = {};
    }
  }
  void arrive(start);

  return () => {
    stopped = true;
    for (const off of offs.splice(0)) off();
  };
}
