/**
 * How a worker template engine (worker-engine.node.ts) reaches its template worker
 * (worker.node.ts): a process of its own by default, so that the worker running out of memory
 * ends only the worker (docs/architecture.md#templates). A worker thread's `resourceLimits` do
 * not give that: on Node 20, V8 ends the whole process — host included — when one allocation
 * in the worker goes past its heap limit by more than the 16 MB Node allows to finish
 * (`{{ s | list | join(",") }}` of a string of 32 Mi characters), so a thread is only the
 * fallback where no process can be started (an Electron utility process cannot fork Node).
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TemplateWorkerRequest } from './worker-protocol';

/** The worker's resource bounds. */
export interface TemplateWorkerLimits {
  /** Old-generation heap, MB (`--max-old-space-size`, a thread's `maxOldGenerationSizeMb`). */
  memoryMb: number;
  /** Young-generation heap, MB (a thread's `maxYoungGenerationSizeMb`; a process gets a third of it per semi-space). */
  youngMb: number;
  /** Stack, MB (a thread's `stackSizeMb`; a process keeps Node's default). */
  stackMb: number;
}

/** Why the worker ended: `oom` when it ran out of its heap, `detail` its exit code or signal. */
export interface TemplateWorkerEnd {
  oom: boolean;
  detail: string;
}

/** One started template worker. */
export interface TemplateWorkerLink {
  post(msg: TemplateWorkerRequest): void;
  /** Every message the worker sends (checked by the engine). */
  onMessage(listener: (msg: unknown) => void): void;
  /** Once, when the worker has ended (crashed, out of memory, killed). */
  onEnd(listener: (end: TemplateWorkerEnd) => void): void;
  /** Ends the worker. */
  kill(): void;
  /** True: an idle worker must not keep this process alive (a CLI ends when its work does). */
  idle(idle: boolean): void;
}

/** Starts a template worker from `entry` with `limits`. */
export type StartTemplateWorker = (entry: string, limits: TemplateWorkerLimits) => TemplateWorkerLink;

/** True for a TypeScript entry (running from sources), which tsx loads. */
export const isTypeScriptEntry = (entry: string): boolean => /\.[cm]?tsx?$/.test(entry);

/**
 * True when a worker process's stderr says V8 stopped it for memory: its heap limit reached, or
 * a value past V8's own size limit (an array of 134 M items: "invalid size error", SIGTRAP).
 */
export function outOfMemory(stderr: string): boolean {
  return /heap out of memory|Reached heap limit|Allocation failed|invalid size error|invalid table size/i.test(stderr);
}

/** A resolved module's file URL, so a child or thread finds it whatever its cwd; `specifier` when it does not resolve. */
function resolved(specifier: string, mjs = false): string {
  try {
    const file = createRequire(import.meta.url).resolve(specifier);
    return pathToFileURL(mjs ? file.replace(/\.cjs$/, '.mjs') : file).href;
  } catch {
    return specifier;
  }
}

/** The V8 flags bounding a worker process's heap. */
export function heapFlags(limits: TemplateWorkerLimits): string[] {
  return [`--max-old-space-size=${limits.memoryMb}`, `--max-semi-space-size=${Math.max(1, Math.round(limits.youngMb / 3))}`];
}

/**
 * A worker process started with `child_process.fork` (Node only: under Electron `fork` would
 * start the app itself): frames `{ ch: 'template', msg }` over IPC, stderr kept to tell an
 * out-of-memory end from a crash.
 */
export const forkTemplateWorker: StartTemplateWorker = (entry, limits) => {
  const child = fork(entry, [], {
    serialization: 'advanced',
    execArgv: [...(isTypeScriptEntry(entry) ? ['--import', resolved('tsx')] : []), ...heapFlags(limits)],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, STEPWISE_PROCESS_NAME: 'template-worker' },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (c: string) => (stderr = (stderr + c).slice(-4096)));
  const ended: ((end: TemplateWorkerEnd) => void)[] = [];
  let end: TemplateWorkerEnd | undefined;
  const finish = (detail: string) => {
    if (end) return;
    end = { oom: outOfMemory(stderr), detail };
    for (const l of ended.splice(0)) l(end);
  };
  // 'close' comes after stderr has ended, so the out-of-memory message has been read.
  child.on('close', (code, signal) => finish(signal ? `killed by ${signal}` : `exit code ${code}`));
  child.on('error', (err) => finish(err.message));
  return {
    post: (msg) => {
      if (child.connected) child.send({ ch: 'template', msg }, (err) => void err);
    },
    onMessage: (listener) =>
      void child.on('message', (m: unknown) => {
        if (m && typeof m === 'object' && (m as { ch?: unknown }).ch === 'template') listener((m as { msg: unknown }).msg);
      }),
    onEnd: (listener) => (end ? queueMicrotask(() => listener(end!)) : void ended.push(listener)),
    kill: () => void child.kill('SIGKILL'),
    idle: (idle) => {
      const handles = [child, child.channel, child.stderr] as ({ ref(): void; unref(): void } | null | undefined)[];
      for (const h of handles) if (idle) h?.unref();
      else h?.ref();
    },
  };
};

/** A worker thread with `resourceLimits` (the fallback; see the module comment). */
export const threadTemplateWorker: StartTemplateWorker = (entry, limits) => {
  const options = {
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: limits.youngMb, stackSizeMb: limits.stackMb },
    stdout: false,
    stderr: false,
  };
  // From sources the entry is TypeScript: tsx loads it. `--import` of tsx's loader does not
  // reach a worker's own module loading on Node 20, its `tsImport` does.
  const w = isTypeScriptEntry(entry)
    ? new Worker(`import(${JSON.stringify(resolved('tsx/esm/api', true))}).then((api) => api.tsImport(${JSON.stringify(pathToFileURL(entry).href)}, ${JSON.stringify(import.meta.url)}))`, { ...options, eval: true })
    : new Worker(entry, options);
  let end: TemplateWorkerEnd | undefined;
  const ended: ((end: TemplateWorkerEnd) => void)[] = [];
  const finish = (e: TemplateWorkerEnd) => {
    if (end) return;
    end = e;
    for (const l of ended.splice(0)) l(e);
  };
  w.on('error', (err: Error & { code?: string }) => finish({ oom: err.code === 'ERR_WORKER_OUT_OF_MEMORY', detail: err.message }));
  w.on('exit', (code) => finish({ oom: false, detail: `exit code ${code}` }));
  return {
    post: (msg) => w.postMessage(msg),
    onMessage: (listener) => void w.on('message', listener),
    onEnd: (listener) => (end ? queueMicrotask(() => listener(end!)) : void ended.push(listener)),
    kill: () => void w.terminate(),
    idle: (idle) => (idle ? w.unref() : w.ref()),
  };
};
