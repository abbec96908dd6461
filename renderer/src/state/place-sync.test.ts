/**
 * The window's place follows the address (place-sync.ts): the address restores thread, run and
 * node at start; showing another run adds a history entry, selecting a node replaces it; Back
 * (popstate) goes to the entry's place; the desktop's stored place is used when the address has
 * none. A real AppState over the in-process viewer host; a stand-in window with a history stack.
 */
import { describe, expect, it, vi } from 'vitest';
import { AppState } from './app';
import { followPlace, PLACE_STORAGE_KEY, type PlaceWindow } from './place-sync';
import { createViewerHost } from '../host/viewer';
import { exampleRun, exampleThread } from '../sample-thread';
import type { RunRecord } from '../../../shared/protocol/host-api';

/** A window with a history stack; `back()` moves in it and fires popstate as a browser does. */
class FakeWindow implements PlaceWindow {
  entries: string[];
  index = 0;
  private pop = new Set<() => void>();
  constructor(hash = '') {
    this.entries = [hash];
  }
  get location() {
    return { hash: this.entries[this.index], pathname: '/', search: '' };
  }
  readonly history = {
    state: null,
    pushState: (_s: unknown, _u: string, url?: string | null) => {
      this.entries = [...this.entries.slice(0, this.index + 1), new URL(url!, 'http://x').hash];
      this.index++;
    },
    replaceState: (_s: unknown, _u: string, url?: string | null) => {
      this.entries[this.index] = new URL(url!, 'http://x').hash;
    },
  };
  addEventListener(_t: 'popstate', l: () => void) {
    this.pop.add(l);
  }
  removeEventListener(_t: 'popstate', l: () => void) {
    this.pop.delete(l);
  }
  back() {
    this.index--;
    for (const l of this.pop) l();
  }
}

function setup() {
  const thread = exampleThread();
  const second: RunRecord = { ...exampleRun(), runId: 'run-second', nodes: exampleRun().nodes.map((n) => ({ ...n, runId: 'run-second', id: n.id.replace('run-example', 'run-second') })) };
  const app = new AppState({ ...createViewerHost(thread, [exampleRun(), second]), presentational: false });
  return { app, path: `${thread.title}.json` };
}

describe('followPlace', () => {
  it('restores thread, run and node from the address, then follows the window into it', async () => {
    const { app, path } = setup();
    await app.start();
    const win = new FakeWindow(`#thread=${encodeURIComponent(path)}&run=run-example&node=llm-1`);
    const stop = followPlace(app, win);
    await vi.waitFor(() => expect(app.store.get(app.selectedAtom)).toEqual({ runId: 'run-example', nodeId: 'llm-1' }));
    expect(app.session?.meta.path).toBe(path);
    expect(app.store.get(app.shownRunAtom)).toBe('run-example');

    // Another run: a new entry; a node selected in it: the same entry.
    await app.openRecord('run-second');
    await vi.waitFor(() => expect(win.entries).toHaveLength(2));
    expect(win.location.hash).toContain('run=run-second');
    expect(win.location.hash).not.toContain('node=');
    app.store.set(app.selectedAtom, { runId: 'run-second', nodeId: 'tool-1' });
    await vi.waitFor(() => expect(win.location.hash).toContain('node=tool-1'));
    expect(win.entries).toHaveLength(2);

    // Back: the first run and its node again.
    win.back();
    await vi.waitFor(() => expect(app.store.get(app.shownRunAtom)).toBe('run-example'));
    expect(app.store.get(app.selectedAtom)).toEqual({ runId: 'run-example', nodeId: 'llm-1' });
    expect(win.entries).toHaveLength(2);
    stop();
    app.stop();
  });

  it('opens the stored place when the address names none, and stores each new place', async () => {
    const { app, path } = setup();
    await app.start();
    const stored = new Map([[PLACE_STORAGE_KEY, JSON.stringify({ thread: path, run: 'run-second' })]]);
    const storage = { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) };
    const win = new FakeWindow('');
    const stop = followPlace(app, win, { storage });
    await vi.waitFor(() => expect(app.store.get(app.shownRunAtom)).toBe('run-second'));
    expect(win.location.hash).toBe(`#thread=${encodeURIComponent(path).replace(/%20/g, '+')}&run=run-second`);
    app.store.set(app.selectedAtom, { runId: 'run-second', nodeId: 'llm-1' });
    await vi.waitFor(() => expect(JSON.parse(stored.get(PLACE_STORAGE_KEY)!)).toEqual({ thread: path, run: 'run-second', node: 'llm-1' }));
    stop();
    app.stop();
  });
});
