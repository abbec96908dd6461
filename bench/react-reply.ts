/**
 * CPU per short reply: a step run whose scripted reply is 250 tokens of text, through the real
 * host core (in this process) and a real runner process, to an in-process client that does what
 * a window does with each push (JSON round trip as on the wire, the contract check, the shared
 * consumer). Per reply: the runner process's CPU (user + system from /proc/<pid>/stat, read when
 * its run_result arrives; 10 ms ticks), the host's (this process's CPU minus the client's), the
 * client's, and the frames pushed. The first two replies warm up and are not counted.
 *
 * Baseline: today's process layout before #15, the runner bundled with its packages left in
 * node_modules (@sinclair/typebox and jsonc-parser loaded as hundreds of small ES modules at
 * every run's start), built here with esbuild, split at dynamic imports as the app's build
 * splits it (the provider SDKs still load only on a real provider's first call). New: the
 * runner as `yarn build` ships it (out/main/agent-runner.js, those packages bundled).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { createHostCore } from '../main/core/host-core';
import { StreamConsumer } from '../shared/stream/consumer';
import { pushProblem } from '../shared/protocol/contract/host-pushes';
import type { HostPush } from '../shared/protocol/host-api';
import type { StreamEnvelope } from '../shared/protocol/envelopes';
import { scriptedThread } from '../tests/support/threads';
import { cpuMs } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The runner as the build emitted it. */
export function shippedRunner(): string {
  const file = path.join(root, 'out', 'main', 'agent-runner.js');
  try {
    readFileSync(file);
  } catch {
    throw new Error(`${path.relative(root, file)} is missing: run the build first (yarn bench builds when sources are newer)`);
  }
  return file;
}

/** The runner with every package left in node_modules (the layout before #15). */
export function externalPackagesRunner(): string {
  const outdir = path.join(root, 'node_modules', '.cache', 'stepwise-bench', 'runner-external');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  buildSync({ entryPoints: { 'agent-runner': path.join(root, 'agent-runner', 'index.ts') }, bundle: true, splitting: true, platform: 'node', format: 'esm', packages: 'external', outdir, outExtension: { '.js': '.mjs' }, logLevel: 'silent' });
  return path.join(outdir, 'agent-runner.mjs');
}

/** CPU time of process `pid` so far, ms (Linux /proc; 10 ms ticks). */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

/** Means per counted reply. */
export interface ReplyCost {
  runnerMs: number;
  hostMs: number;
  clientMs: number;
  frames: number;
}

/** `replies` + 2 short replies with `runner`; the means of the last `replies`. */
export async function replyCost(runner: string, replies: number, tokens = 250): Promise<ReplyCost> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-reply-'));
  mkdirSync(path.join(home, 'workspace'));
  const text = Array.from({ length: tokens }, (_, i) => `w${i % 17} `).join('');
  const thread = scriptedThread(
    Array.from({ length: replies + 2 }, () => ({ text })),
    { tokensPerSecond: 1000 },
  );
  writeFileSync(path.join(home, 'workspace', 'reply.json'), JSON.stringify(thread));
  const core = await createHostCore({ home, runnerEntry: runner, log: () => {}, watchThreadFiles: false });
  const consumer = new StreamConsumer({});
  let clientMs = 0;
  let frames = 0;
  let runnerPid = 0;
  let runnerMs = 0;
  let ended: () => void = () => {};
  const conn = core.connect(
    (push: HostPush) => {
      const c0 = process.cpuUsage();
      const p = JSON.parse(JSON.stringify({ push })).push as HostPush;
      if (pushProblem(p) === undefined && (p.type === 'tree_update' || p.type === 'node_update' || p.type === 'llm_delta' || p.type === 'node_snapshot')) consumer.apply(p as StreamEnvelope);
      frames++;
      clientMs += cpuMs(c0);
      if (push.type === 'run_result' && runnerPid) runnerMs = processCpuMs(runnerPid);
      if (push.type === 'run_ended') ended();
    },
    { unbounded: true },
  );
  await conn.request('thread.open', { path: 'reply.json' });
  conn.stream.subscribe();
  const sum: ReplyCost = { runnerMs: 0, hostMs: 0, clientMs: 0, frames: 0 };
  try {
    for (let r = 0; r < replies + 2; r++) {
      const done = new Promise<void>((resolve) => (ended = resolve));
      const c0 = process.cpuUsage();
      const client0 = clientMs;
      const frames0 = frames;
      runnerPid = 0;
      const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
      runnerPid = core.supervisor.get(runId)?.pid ?? 0;
      await done;
      await core.bridge.idle();
      if (r < 2) continue;
      const client = clientMs - client0;
      sum.hostMs += cpuMs(c0) - client;
      sum.clientMs += client;
      sum.runnerMs += runnerMs;
      sum.frames += frames - frames0;
    }
  } finally {
    await core.close();
    rmSync(home, { recursive: true, force: true });
  }
  return { runnerMs: sum.runnerMs / replies, hostMs: sum.hostMs / replies, clientMs: sum.clientMs / replies, frames: sum.frames / replies };
}
