/** Helpers for host-core integration tests: temp homes, thread files, recording clients. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StreamConsumer } from '../../shared/stream/consumer';
import type { HostPush } from '../../shared/protocol/host-api';
import type { StreamEnvelope } from '../../shared/protocol/envelopes';
import type { Thread } from '../../shared/thread/schema';

/** A fresh $STEPWISE_HOME with an empty workspace. */
export function makeHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-host-'));
  fs.mkdirSync(path.join(home, 'workspace'));
  return home;
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
