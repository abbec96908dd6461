/**
 * Window size and position, restored at start: `$home/settings/window.json` (mode 0600),
 * `{ x?, y?, width, height, maximized, fullScreen }` in DIPs. A saved position is used only
 * when the window would still be visible on a connected display (a monitor may be gone);
 * otherwise the size is kept and the window is centred. Bad files fall back to defaults.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
  fullScreen: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1400, height: 900, maximized: false, fullScreen: false };
/** Smallest size a window is restored to (also the BrowserWindow minimum). */
export const MIN_SIZE = { width: 720, height: 480 };

/** Path of window.json under `home`. */
export function windowStateFile(home: string): string {
  return path.join(home, 'settings', 'window.json');
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined;
}

/** Reads window.json; a missing or malformed file gives the defaults (never throws). */
export async function loadWindowState(home: string): Promise<WindowState> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(windowStateFile(home), 'utf8'));
  } catch {
    return { ...DEFAULT_WINDOW_STATE };
  }
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_WINDOW_STATE };
  const r = raw as Record<string, unknown>;
  const width = num(r.width);
  const height = num(r.height);
  const x = num(r.x);
  const y = num(r.y);
  return {
    width: Math.max(MIN_SIZE.width, width ?? DEFAULT_WINDOW_STATE.width),
    height: Math.max(MIN_SIZE.height, height ?? DEFAULT_WINDOW_STATE.height),
    ...(x !== undefined && y !== undefined ? { x, y } : {}),
    maximized: r.maximized === true,
    fullScreen: r.fullScreen === true,
  };
}

/** Writes window.json atomically with mode 0600. */
export async function saveWindowState(home: string, state: WindowState): Promise<void> {
  const file = windowStateFile(home);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}

/**
 * The bounds to open with, given the displays' work areas: the saved size, clamped to the
 * largest work area; the saved position only when at least 100×50 DIPs of the title bar
 * region lie on one display (undefined x/y lets the OS centre the window).
 */
export function restoreBounds(state: WindowState, workAreas: Rect[]): { x?: number; y?: number; width: number; height: number } {
  const maxW = Math.max(MIN_SIZE.width, ...workAreas.map((a) => a.width));
  const maxH = Math.max(MIN_SIZE.height, ...workAreas.map((a) => a.height));
  const width = Math.min(Math.max(state.width, MIN_SIZE.width), maxW);
  const height = Math.min(Math.max(state.height, MIN_SIZE.height), maxH);
  if (state.x === undefined || state.y === undefined) return { width, height };
  const top: Rect = { x: state.x, y: state.y, width, height: Math.min(height, 50) };
  const visible = workAreas.some((a) => overlap(top, a).width >= Math.min(100, width) && overlap(top, a).height >= Math.min(50, top.height));
  return visible ? { x: state.x, y: state.y, width, height } : { width, height };
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, w), height: Math.max(0, h) };
}

/** The parts of a BrowserWindow the tracker reads. */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  isDestroyed(): boolean;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'enter-full-screen' | 'leave-full-screen' | 'close', listener: () => void): unknown;
}

/**
 * Saves a window's state (debounced 500 ms on resize/move, at once on close). The normal
 * (un-maximized) bounds are kept, so un-maximizing after a restart returns to them.
 * Returns `flush()` that writes the latest state now.
 */
export function trackWindowState(win: TrackedWindow, home: string, onError?: (err: Error) => void): { flush(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let last: WindowState | undefined;
  const capture = () => {
    if (win.isDestroyed()) return;
    const b = win.getNormalBounds();
    last = { x: b.x, y: b.y, width: b.width, height: b.height, maximized: win.isMaximized(), fullScreen: win.isFullScreen() };
  };
  const write = async () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!last) return;
    try {
      await saveWindowState(home, last);
    } catch (err) {
      onError?.(err as Error);
    }
  };
  const schedule = () => {
    capture();
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void write(), 500);
  };
  for (const ev of ['resize', 'move', 'maximize', 'unmaximize', 'enter-full-screen', 'leave-full-screen'] as const) win.on(ev, schedule);
  win.on('close', () => {
    capture();
    void write();
  });
  return { flush: write };
}
