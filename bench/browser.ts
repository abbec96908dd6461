/**
 * What the browser benchmarks share (renderer.ts, messages.ts): building a bench-only page
 * with vite (react-dom/profiling aliased in, so React's Profiler reports commits), serving a
 * folder on 127.0.0.1, and the Chromium flags (playwright-core, /usr/bin/chromium or
 * BENCH_CHROMIUM).
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';

/** `--expose-gc` lets a bench start a measured step after a garbage collection. */
export const BENCH_CHROMIUM_ARGS = ['--js-flags=--expose-gc', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Build the page whose index.html is in `root` into `outDir`. `profiling` (default) aliases
 * react-dom/profiling in, so React's Profiler reports commits; without it the page is the
 * production build the app runs (the profiling build times every component).
 */
export async function buildBenchPage(root: string, outDir: string, profiling = true): Promise<void> {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  await build({
    root,
    base: './',
    logLevel: 'error',
    configFile: false,
    plugins: [react()],
    resolve: { alias: profiling ? [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }] : [] },
    build: { outDir, emptyOutDir: false, sourcemap: false, reportCompressedSize: false },
  });
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.json': 'application/json' };

/** Serve the files of `dir` on 127.0.0.1 at a free port. */
export function serveDir(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, rel.endsWith('/') ? `${rel}index.html` : rel);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })));
}

/** Chromium for a benchmark (BENCH_CHROMIUM, else Debian's /usr/bin/chromium). */
export async function launchBenchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium', args: BENCH_CHROMIUM_ARGS });
}

/**
 * Open the bench page at `url` in `page` and wait until it says it is ready
 * (`window.__stepwiseBench.ready`). Returns the list the page's uncaught errors go into.
 */
export async function openBenchPage(page: Page, url: string): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as unknown as { __stepwiseBench?: { ready: boolean } }).__stepwiseBench?.ready === true, undefined, { timeout: 30_000 }).catch(() => {
    throw new Error(`the bench page did not load: ${errors.join('; ') || 'no error reported'}`);
  });
  return errors;
}

/**
 * A task of the page's main thread: how long it held the thread (wall clock) and the CPU it
 * used, ms; `endUs` is when it ended on the trace clock (µs), to compare with {@link TraceMarks}.
 */
export interface MainThreadTask {
  wallMs: number;
  cpuMs: number;
  endUs: number;
}

/** The trace-clock time (µs) of each `performance.mark()` the page made, by name (the first of each; category blink.user_timing). */
export type TraceMarks = Map<string, number>;

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts?: number; dur?: number; tdur?: number; cat?: string; args?: { name?: string } };

/**
 * Starts Chromium tracing `page`; the returned function stops it and gives the renderer main
 * thread's tasks of at least `minWallMs` (trace events `ThreadControllerImpl::RunTask`, their
 * `dur` and thread-clock `tdur`; `categories` are the trace's). On a machine shared with other work a task's wall time also
 * counts the time its thread waited for a core; its CPU time does not.
 */
export async function traceMainThreadTasks(browser: Browser, page: Page, minWallMs = 50, categories = ['toplevel']): Promise<() => Promise<MainThreadTask[]>> {
  const stop = await traceMainThreadTasksAndMarks(browser, page, minWallMs, categories);
  return async () => (await stop()).tasks;
}

/** {@link traceMainThreadTasks}, with the page's `performance.mark()`s (blink.user_timing is traced too). */
export async function traceMainThreadTasksAndMarks(browser: Browser, page: Page, minWallMs = 50, categories = ['toplevel']): Promise<() => Promise<{ tasks: MainThreadTask[]; marks: TraceMarks }>> {
  await browser.startTracing(page, { categories: [...categories, 'blink.user_timing'] });
  return async () => {
    const events = (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
    const tasks = events
      .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && main.has(`${e.pid}:${e.tid}`) && (e.dur ?? 0) >= minWallMs * 1000)
      .map((e) => ({ wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000, endUs: (e.ts ?? 0) + (e.dur ?? 0) }));
    const marks: TraceMarks = new Map();
    for (const e of events) if (e.cat?.includes('blink.user_timing') && e.ts !== undefined && !marks.has(e.name)) marks.set(e.name, e.ts);
    return { tasks, marks };
  };
}

/** Runs `f` while tracing `page` ({@link traceMainThreadTasks}); gives `f`'s result and the long tasks. */
export async function withMainThreadTasks<T>(browser: Browser, page: Page, f: () => Promise<T>, minWallMs = 50): Promise<{ r: T; tasks: MainThreadTask[] }> {
  const stop = await traceMainThreadTasks(browser, page, minWallMs, ['toplevel', 'disabled-by-default-devtools.timeline']);
  let r: T;
  try {
    r = await f();
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  return { r, tasks: await stop() };
}
