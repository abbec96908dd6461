/**
 * Where the desktop shell's bundle parts are, relative to the main bundle (`out/main/`,
 * inside app.asar when packaged): the sandboxed preload (`out/preload/index.cjs`, CommonJS —
 * a sandboxed preload cannot be an ES module) and the renderer page (`out/renderer/index.html`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** File name of the preload bundle (electron.vite.config.ts emits it). */
export const PRELOAD_FILE = 'index.cjs';

/** Directory of the running main bundle. */
export function mainDir(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

/** Absolute path of the preload script, for `webPreferences.preload`. */
export function preloadPath(dir: string = mainDir()): string {
  return path.join(dir, '..', 'preload', PRELOAD_FILE);
}

/** Absolute path of the renderer's index.html. */
export function rendererIndex(dir: string = mainDir()): string {
  return path.join(dir, '..', 'renderer', 'index.html');
}

/**
 * The dev server URL of `electron-vite dev` (`ELECTRON_RENDERER_URL`), never in a packaged
 * app (where a stray environment variable must not make the window load remote content).
 */
export function devRendererUrl(packaged: boolean, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (packaged) return undefined;
  const url = env.ELECTRON_RENDERER_URL;
  if (!url) return undefined;
  try {
    const u = new URL(url);
    const local = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
    return (u.protocol === 'http:' || u.protocol === 'https:') && local ? u.href : undefined;
  } catch {
    return undefined;
  }
}
