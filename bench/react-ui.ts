/**
 * A long ReAct run with its thread open in the real app: the built web host
 * (`out/main/cli.js serve`, its own process, a fresh home) and the built renderer in Chromium
 * (playwright-core, /usr/bin/chromium or BENCH_CHROMIUM). The thread's scripted model calls the
 * `everything` MCP server's echo tool on every turn but the last. The page has the thread open
 * and the Run button pressed; from then until the run has ended (its run file is written) and
 * the final message is in the thread (found with Find in messages: the list is virtualised),
 * the page's long tasks are recorded (PerformanceObserver; those ending before the run's result
 * reached the page apart from the later ones), its JS
 * heap sampled every second (CDP Runtime.getHeapUsage), the CPU time of its main-thread tasks
 * traced (Chromium tracing: wall-clock long tasks count waiting for a core on a shared machine),
 * and the host's resident memory read from /proc/<pid>/status. Linux only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { echoTool, reactThread } from '../tests/support/threads';
import { traceMainThreadTasksAndMarks } from './browser';
import { maxOf } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** What one UI run measured. */
export interface UiRun {
  turns: number;
  seconds: number;
  /** Long tasks (ms) while the run streamed, before its result reached the page. */
  longTasks: number[];
  /** Long tasks from the result's arrival on (the thread gets the run's messages). */
  resultLongTasks: number[];
  maxHeapMb: number;
  /** Heap after the run, after a collection. */
  endHeapMb: number;
  maxHostRssMb: number;
  finalMessageShown: boolean;
  /** CPU time (ms) of the longest main-thread task of the run (Chromium tracing), result included. */
  longestTaskCpuMs: number;
  /**
   * CPU time (ms) of the longest main-thread task that ended after the run's result reached the
   * page (the page marks its arrival; traced tasks of 10 ms or more), NaN when no mark was traced.
   */
  resultTaskCpuMs: number;
  /** CPU time (ms) of each traced task from the result on, in order. */
  resultTasksCpuMs: number[];
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Starts the built web host on `home`; resolves with its URL. */
async function serve(home: string): Promise<{ proc: ChildProcess; url: string }> {
  const cli = path.join(root, 'out', 'main', 'cli.js');
  if (!existsSync(cli)) throw new Error('out/main/cli.js is missing: run the build first');
  const proc = spawn(process.execPath, [cli, 'serve', '--no-open', '--port', '0', '--home', home], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the web host did not start in 60 s:\n${out}`)), 60_000);
    proc.stdout!.on('data', () => {
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => reject(new Error(`the web host exited ${code}:\n${out}`)));
  });
  return { proc, url };
}

type PageState = { __longTasks: { start: number; duration: number }[]; __resultAt?: number; WebSocket: typeof WebSocket };

/** Resolves with `p`'s value, or `undefined` after `ms` (a page busy in one long task answers nothing). */
function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms))]);
}

/**
 * One ReAct run of `turns` turns with the thread open in the page. The run's end is seen on
 * the host's side (its run file written), so a page that is busy taking the result does not
 * hold the benchmark: it gets `resultLimitMs` to answer again, else the task taking the result
 * is reported as at least that long.
 */
export async function uiRun(turns: number, tokensPerSecond: number, resultLimitMs = 120_000): Promise<UiRun> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-ui-'));
  const title = `ReAct ${turns}`;
  mkdirSync(path.join(home, 'workspace'), { recursive: true });
  const thread = reactThread(turns, echoTool, (i) => ({ message: `turn ${i}` }), { tokensPerSecond, title });
  writeFileSync(path.join(home, 'workspace', `${title}.json`), JSON.stringify(thread));
  const { chromium } = await import('playwright-core');
  const host = await serve(home);
  const browser = await chromium.launch({ executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript(() => {
      const g = globalThis as unknown as PageState;
      g.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) g.__longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask' as 'mark', buffered: true }); // Chromium's entry type, unknown to Node's DOM types
      // When the run's result reaches the page (its thread_patch): the tasks after it take the result.
      const Socket = g.WebSocket;
      g.WebSocket = class extends Socket {
        constructor(url: string | URL, protocols?: ConstructorParameters<typeof WebSocket>[1]) {
          super(url, protocols);
          this.addEventListener('message', (e) => {
            if (g.__resultAt === undefined && typeof e.data === 'string' && e.data.includes('"thread_patch"') && e.data.includes('"origin":"run:')) {
              g.__resultAt = performance.now();
              performance.mark('stepwise:run-result'); // traced: the tasks from here on take the result
            }
          });
        }
      };
    });
    await page.goto(host.url);
    await page.getByRole('treeitem', { name: `thread ${title}` }).click();
    const run = page.getByRole('button', { name: 'Run', exact: true });
    await run.waitFor();
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize / 2 ** 20;
    const tasks: { start: number; duration: number }[] = [];
    let resultAt = Infinity;
    /** When the page last answered (this process's clock). */
    let answeredAt = performance.now();
    /** Takes the long tasks the page recorded since the last call; false when it did not answer in `ms`. */
    const drain = async (ms: number) => {
      const got = await within(
        page.evaluate(() => {
          const g = globalThis as unknown as PageState;
          return { tasks: g.__longTasks.splice(0), resultAt: g.__resultAt ?? null };
        }),
        ms,
      );
      if (!got) return false;
      answeredAt = performance.now();
      tasks.push(...got.tasks);
      if (got.resultAt !== null) resultAt = got.resultAt;
      return true;
    };
    // Opening the thread is not the run (the messages benchmark measures it): wait until the
    // page has had no long task for 2 s (at most 30 s), then start counting.
    for (let quiet = 0, waited = 0; quiet < 2000 && waited < 30_000; waited += 500) {
      await new Promise((r) => setTimeout(r, 500));
      const before = tasks.length;
      await drain(10_000);
      quiet = tasks.length > before ? 0 : quiet + 500;
    }
    tasks.length = 0;
    let maxHeapMb = await heap();
    let maxHostRssMb = rssMb(host.proc.pid!);
    let sampling: Promise<unknown> | undefined;
    const sampler = setInterval(() => {
      maxHostRssMb = Math.max(maxHostRssMb, rssMb(host.proc.pid!));
      sampling ??= Promise.all([drain(60_000), heap().then((h) => (maxHeapMb = Math.max(maxHeapMb, h)))])
        .catch(() => {})
        .finally(() => (sampling = undefined));
    }, 1000);
    const runs = path.join(home, 'runs', thread.id);
    const ended = () => existsSync(runs) && readdirSync(runs).some((f) => f.endsWith('.json'));
    const t0 = performance.now();
    let seconds: number;
    let answered = false;
    // Tasks of 10 ms of wall time or more: the longest one's CPU time is reported even when none reached 50 ms.
    const stopTrace = await traceMainThreadTasksAndMarks(browser, page, 10);
    let traced = false;
    let longestTaskCpuMs = NaN;
    let resultTaskCpuMs = NaN;
    let resultTasksCpuMs: number[] = [];
    const endTrace = async () => {
      if (traced) return;
      traced = true;
      const { tasks: all, marks } = await stopTrace();
      longestTaskCpuMs = maxOf(all.map((t) => t.cpuMs));
      const at = marks.get('stepwise:run-result');
      if (at === undefined) return;
      resultTasksCpuMs = all.filter((t) => t.endUs >= at).map((t) => t.cpuMs);
      resultTaskCpuMs = maxOf(resultTasksCpuMs);
    };
    try {
      await run.click();
      const deadline = Date.now() + Math.max(120_000, turns * 1000);
      while (!ended()) {
        if (Date.now() > deadline) throw new Error(`the ${turns}-turn run did not end in ${Math.round((deadline - t0) / 1000)} s`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const endedAt = performance.now();
      seconds = (endedAt - t0) / 1000;
      answered = await drain(resultLimitMs);
      // Still busy: one task since the page last answered, taking the result when that was
      // about when the run ended (the sampler asks every second), else while it streamed.
      if (!answered) tasks.push({ start: answeredAt >= endedAt - 2000 ? Infinity : -Infinity, duration: performance.now() - answeredAt });
    } finally {
      clearInterval(sampler);
      if (!answered) await endTrace().catch(() => {});
    }
    maxHostRssMb = Math.max(maxHostRssMb, rssMb(host.proc.pid!));
    let finalMessageShown = false;
    let endHeapMb = NaN;
    if (answered) {
      // The list is virtualised: the final message is found as a person finds it, with Find in messages.
      await page.getByRole('textbox', { name: 'Find in messages' }).fill(`All done after ${turns} turns.`);
      finalMessageShown = await page
        .locator('[data-find-current]')
        .filter({ hasText: `All done after ${turns} turns.` })
        .waitFor({ state: 'visible', timeout: 30_000 })
        .then(() => true, () => false);
      await drain(30_000);
      await endTrace();
      maxHeapMb = Math.max(maxHeapMb, await heap());
      await cdp.send('HeapProfiler.collectGarbage');
      endHeapMb = await heap();
    }
    const taking = (t: { start: number; duration: number }) => t.start === Infinity || (t.start !== -Infinity && t.start + t.duration > resultAt);
    const longTasks = tasks.filter((t) => !taking(t)).map((t) => t.duration);
    const resultLongTasks = tasks.filter(taking).map((t) => t.duration);
    return { turns, seconds, longTasks, resultLongTasks, maxHeapMb, endHeapMb, maxHostRssMb, finalMessageShown, longestTaskCpuMs, resultTaskCpuMs, resultTasksCpuMs };
  } finally {
    await browser.close();
    host.proc.kill('SIGTERM');
    await new Promise((r) => {
      const t = setTimeout(() => {
        host.proc.kill('SIGKILL');
        r(null);
      }, 5000);
      host.proc.once('exit', () => {
        clearTimeout(t);
        r(null);
      });
    });
    rmSync(home, { recursive: true, force: true });
  }
}
