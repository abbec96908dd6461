/** Helpers for host-core integration tests: temp homes, thread files, recording clients. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createHostCore, type HostConnection, type HostCore, type HostCoreOptions } from '../../main/core/host-core';
import { StreamConsumer } from '../../shared/stream/consumer';
import type { HostPush } from '../../shared/protocol/host-api';
import type { StreamEnvelope } from '../../shared/protocol/envelopes';
import type { Thread } from '../../shared/thread/schema';

/** A fresh $STEPWISE_HOME whose workspace holds `threads` (workspace path → thread; none by default). */
export function makeHome(threads: Record<string, Thread> = {}): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-host-'));
  fs.mkdirSync(path.join(home, 'workspace'));
  for (const [name, thread] of Object.entries(threads)) writeThread(home, name, thread);
  return home;
}

/**
 * Starts real host cores for the tests of one file and closes each one after its test (it
 * registers a vitest `afterEach`: call it once, at the top of the file). `log` defaults to none.
 */
export function hostCores(): (options: HostCoreOptions) => Promise<HostCore> {
  const started: HostCore[] = [];
  afterEach(async () => {
    for (const core of started.splice(0)) await core.close();
  });
  return async (options) => {
    const core = await createHostCore({ log: () => {}, ...options });
    started.push(core);
    return core;
  };
}

/** A RecordingClient connected to `core`, with the workspace threads at `paths` open and the stream subscribed. */
export async function watchThreads(core: HostCore, ...paths: string[]): Promise<{ client: RecordingClient; conn: HostConnection }> {
  const client = new RecordingClient();
  const conn = core.connect(client.send);
  for (const p of paths) await conn.request('thread.open', { path: p });
  await conn.request('stream.subscribe', {});
  return { client, conn };
}

/** Write a thread into the workspace; returns its workspace-relative path. */
export function writeThread(home: string, name: string, thread: Thread): string {
  fs.writeFileSync(path.join(home, 'workspace', name), JSON.stringify(thread, null, 2));
  return name;
}

export function readThread(home: string, name: string): Thread {
  return JSON.parse(fs.readFileSync(path.join(home, 'workspace', name), 'utf8')) as Thread;
}

/** Poll `pred` every 10 ms until it is truthy; throws after `ms`. */
export async function waitFor<T>(pred: () => T | undefined | false, ms = 20_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What `p` rejects with (a host request's `{ code, message }`); throws when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('expected a rejection');
}

/** A words script of `n` words: "w1 w2 … wn". */
export function words(n: number, prefix = 'w'): string {
  return Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join(' ');
}

/**
 * A client as a window would be: a StreamConsumer fed with every push, plus what a test checks
 * — duplicate or out-of-order deltas, snapshot requests (gaps), and each node's text at the
 * moment its closing tree_update arrived (before that update replaced it).
 */
export class RecordingClient {
  readonly consumer: StreamConsumer;
  readonly pushes: HostPush[] = [];
  gapRequests = 0;
  duplicates = 0;
  deltas = 0;
  snapshots = 0;
  /** nodeId → text shown just before its closing update. */
  readonly textAtClose = new Map<string, string>();
  readonly ended = new Map<string, string>();

  constructor() {
    this.consumer = new StreamConsumer({ requestSnapshot: () => this.gapRequests++ });
  }

  readonly send = (push: HostPush): void => {
    this.pushes.push(push);
    if (push.type === 'run_ended') this.ended.set(push.runId, push.status);
    if (push.type === 'llm_delta') {
      this.deltas++;
      const n = this.consumer.get(push.nodeId);
      if (n && !n.syncing && push.seq <= n.seq) this.duplicates++;
    }
    if (push.type === 'node_snapshot') this.snapshots++;
    if (push.type === 'tree_update') {
      for (const node of push.nodes) {
        const n = this.consumer.get(node.id);
        const terminal = ['completed', 'error', 'cancelled', 'interrupted'].includes(node.status);
        if (terminal && n && !this.textAtClose.has(node.id)) this.textAtClose.set(node.id, n.text);
      }
    }
    if (push.type === 'tree_update' || push.type === 'node_update' || push.type === 'llm_delta' || push.type === 'node_snapshot') this.consumer.apply(push as StreamEnvelope);
  };

  /** The first llm node id seen. */
  llmNodeId(): string | undefined {
    for (const p of this.pushes) if (p.type === 'tree_update') for (const n of p.nodes) if (n.kind === 'llm') return n.id;
    return undefined;
  }

  text(nodeId: string): string {
    return this.consumer.get(nodeId)?.text ?? '';
  }
}
