/**
 * The run journal (docs/architecture.md#run-journal): a checkpoint appends what changed since
 * the last one, so the bytes a turn adds do not grow with the run; what is on disk after any
 * checkpoint, replayed, is the run as the bridge held it then (compacted or not); at close the
 * run file replaces the journal, and a start repairs a journal left by a host that died.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveRun } from '../bridge/live-run';
import { journalFile, runFile, RunJournal } from './journal';
import { replayJournal } from './journal-log';
import { RequestReader, requestAt } from '../../../shared/protocol/request-delta';
import { listRuns, readRun, repairJournal } from './run-files';
import type { RunnerToHost } from '../../../shared/protocol/runner';
import type { ExecNode } from '../../../shared/protocol/nodes';
import type { DeltaChannel } from '../../../shared/protocol/envelopes';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});
function home(): string {
  const h = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-journal-'));
  homes.push(h);
  return h;
}

/** A bridge in miniature: applies runner messages to a LiveRun and tells the journal, as StreamBridge.handle does. */
class Feed {
  readonly run: LiveRun;
  private readonly seq = new Map<string, number>();
  private n = 0;
  constructor(
    readonly journal: RunJournal,
    runId = 'run1',
  ) {
    this.run = new LiveRun({ runId, threadId: 'thread1', mode: 'react', startedAt: 1000, baseMessageIds: ['m1'] });
    journal.changed(this.run);
  }
  node(kind: ExecNode['kind'], status: ExecNode['status'] = 'running', extra: Partial<ExecNode> = {}): ExecNode {
    return { id: `run1.${++this.n}`, runId: this.run.runId, kind, name: kind, status, startedAt: 1000 + this.n, ...extra };
  }
  post(msg: RunnerToHost): void {
    const r = this.run;
    if (msg.type === 'tree_update') r.applyTree(msg);
    else if (msg.type === 'node_update' && !r.applyUpdate(msg)) return;
    else if (msg.type === 'llm_delta' && !r.applyDelta(msg)) return;
    else if (msg.type === 'run_result') r.result = msg;
    else if (msg.type === 'llm_record') {
      const { v: _v, type: _t, ...rec } = msg;
      this.journal.changed(r, { v: 1, type: 'llm_record', ...r.addRecord(rec) });
      return;
    }
    this.journal.changed(r, msg);
  }
  tree(...nodes: ExecNode[]): void {
    this.post({ v: 1, type: 'tree_update', runId: this.run.runId, nodes: nodes as [ExecNode, ...ExecNode[]] });
  }
  delta(nodeId: string, channel: DeltaChannel, delta: string, index = 0): void {
    const seq = (this.seq.get(nodeId) ?? 0) + 1;
    this.seq.set(nodeId, seq);
    const extra = channel === 'tool_args' ? { toolCallId: `call-${nodeId}-${index}`, toolName: 'search' } : {};
    this.post({ v: 1, type: 'llm_delta', runId: this.run.runId, nodeId, channel, index, delta, seq, ...extra });
  }
  /** One ReAct turn: an LLM call streaming text and a tool call, then the tool runs and logs. */
  turn(i: number, root: string): void {
    const llm = this.node('llm', 'running', { parentId: root, input: { messageCount: 2 * i + 1 } });
    this.tree(llm);
    for (const w of ['Turn ', `${i}: `, 'checking ', 'again.']) this.delta(llm.id, 'text', w);
    this.delta(llm.id, 'tool_args', '{"i":');
    this.delta(llm.id, 'tool_args', `${i}}`);
    this.post({ v: 1, type: 'llm_record', runId: this.run.runId, nodeId: llm.id, api: 'scripted', request: conversation(i), events: [{ t: 1, data: { kind: 'text' } }] });
    const output = { text: `Turn ${i}: checking again.`, toolCalls: [{ id: `call-${i}`, name: 'search', arguments: { i } }], stopReason: 'tool_calls' };
    this.tree({ ...llm, status: 'completed', endedAt: llm.startedAt + 5, output });
    const tool = this.node('tool', 'running', { parentId: llm.id, toolCallId: `call-${i}`, input: { i } });
    this.tree(tool);
    this.post({ v: 1, type: 'node_update', runId: this.run.runId, nodeId: tool.id, logs: [{ level: 'info', data: `searching ${i}`, t: 1 }] });
    this.tree({ ...tool, status: 'completed', endedAt: tool.startedAt + 2, output: { content: [{ type: 'text', text: `found ${i}` }], isError: false } });
  }
}

/** The raw request of turn i of a ReAct run: the whole conversation so far, as a provider sends it. */
function conversation(i: number): { model: string; messages: unknown[] } {
  const messages: unknown[] = [{ role: 'user', content: 'Find it.' }];
  for (let k = 1; k < i; k++) messages.push({ role: 'assistant', content: `Turn ${k}: checking again.`, tool_calls: [{ id: `call-${k}`, name: 'search', arguments: `{"i":${k}}` }] }, { role: 'tool', tool_call_id: `call-${k}`, content: `found ${k}` });
  return { model: 'scripted', messages };
}

/** A journal on a fresh home (checkpoints only when flushed) with a run whose root node is open. */
function started(opts: { compactBytes?: number } = {}) {
  const h = home();
  const journal = new RunJournal(h, { intervalMs: 60_000, ...opts });
  const feed = new Feed(journal);
  const root = feed.node('run');
  feed.tree(root);
  return { h, journal, feed, root };
}

const onDisk = (h: string, run: LiveRun) => replayJournal(fs.readFileSync(journalFile(h, run.threadId, run.runId), 'utf8'))?.record();
const size = (h: string, run: LiveRun) => fs.statSync(journalFile(h, run.threadId, run.runId)).size;

describe('run journal', () => {
  it('a checkpoint appends what changed: a turn adds as many bytes at turn 1,000 as at turn 10', async () => {
    const { h, journal, feed, root } = started();
    const added: number[] = [];
    let before = 0;
    for (let i = 1; i <= 1000; i++) {
      feed.turn(i, root.id);
      await journal.flush();
      const now = size(h, feed.run);
      added.push(now - before);
      before = now;
    }
    // Turn numbers have more digits later on: a few bytes, not the turns before (each model
    // call's request holds the whole conversation; the journal keeps what it adds).
    expect(added[999] / added[9]).toBeLessThan(1.1);
    const replayed = onDisk(h, feed.run)!;
    expect(replayed).toEqual(feed.run.record());
    expect(new RequestReader(replayed.records).at(999)).toEqual(conversation(1000));
    expect(requestAt(replayed.records, 500)).toEqual({ ok: true, request: conversation(501) });
    expect(fs.existsSync(runFile(h, 'thread1', 'run1'))).toBe(false);
  });

  it('property: after any checkpoint, the journal replayed is the run as the bridge holds it, compacted or not', async () => {
    type Op =
      | { op: 'open'; kind: 'llm' | 'tool' }
      | { op: 'delta'; node: number; channel: DeltaChannel; index: number; text: string }
      | { op: 'update'; node: number; status?: 'running' | 'awaiting_input'; log?: string; progress?: number }
      | { op: 'close'; node: number; status: 'completed' | 'error' | 'cancelled'; withOutput: boolean }
      | { op: 'record'; node: number }
      | { op: 'result' }
      | { op: 'checkpoint' };
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      { arbitrary: fc.record({ op: fc.constant('open' as const), kind: fc.constantFrom('llm' as const, 'tool' as const) }), weight: 2 },
      { arbitrary: fc.record({ op: fc.constant('delta' as const), node: fc.nat(8), channel: fc.constantFrom<DeltaChannel>('text', 'thinking', 'tool_args'), index: fc.nat(1), text: fc.string({ minLength: 1, maxLength: 30 }) }), weight: 6 },
      { arbitrary: fc.record({ op: fc.constant('update' as const), node: fc.nat(8), status: fc.option(fc.constantFrom('running' as const, 'awaiting_input' as const), { nil: undefined }), log: fc.option(fc.string(), { nil: undefined }), progress: fc.option(fc.nat(), { nil: undefined }) }), weight: 2 },
      { arbitrary: fc.record({ op: fc.constant('close' as const), node: fc.nat(8), status: fc.constantFrom('completed' as const, 'error' as const, 'cancelled' as const), withOutput: fc.boolean() }), weight: 1 },
      { arbitrary: fc.record({ op: fc.constant('record' as const), node: fc.nat(8) }), weight: 1 },
      { arbitrary: fc.constant({ op: 'result' as const }), weight: 1 },
      { arbitrary: fc.constant({ op: 'checkpoint' as const }), weight: 4 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 80 }), fc.constantFrom(1, 400, 1 << 30), async (ops, compactBytes) => {
        const { h, journal, feed, root } = started({ compactBytes });
        const open: ExecNode[] = [];
        const sent: unknown[] = [];
        for (const o of ops) {
          const node = 'node' in o ? open[o.node % Math.max(1, open.length)] : undefined;
          if (o.op === 'open') {
            const n = feed.node(o.kind, 'running', { parentId: root.id });
            open.push(n);
            feed.tree(n);
          } else if (o.op === 'delta' && node) {
            feed.delta(node.id, o.channel, o.text, o.index);
          } else if (o.op === 'update' && node) {
            feed.post({ v: 1, type: 'node_update', runId: 'run1', nodeId: node.id, ...(o.status ? { status: o.status } : {}), ...(o.log !== undefined ? { logs: [{ level: 'info', data: o.log, t: 5 }] } : {}), ...(o.progress !== undefined ? { attrs: { progress: o.progress } } : {}) });
          } else if (o.op === 'close' && node) {
            feed.tree({ ...node, status: o.status, endedAt: 2000, ...(o.withOutput ? { output: { text: 'final' } } : {}) });
          } else if (o.op === 'record' && node) {
            sent.push({ n: sent.length, messages: Array.from({ length: sent.length + 1 }, (_, k) => `m${k}`) });
            feed.post({ v: 1, type: 'llm_record', runId: 'run1', nodeId: node.id, api: 'scripted', request: sent.at(-1), events: [] });
          } else if (o.op === 'result') {
            feed.post({ v: 1, type: 'run_result', runId: 'run1', status: 'completed', messages: [{ id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'done' }] }] });
          } else if (o.op === 'checkpoint') {
            await journal.flush();
            expect(onDisk(h, feed.run)).toEqual(feed.run.record());
          }
        }
        await journal.flush();
        const replayed = onDisk(h, feed.run)!;
        expect(replayed).toEqual(feed.run.record());
        const reader = new RequestReader(replayed.records);
        expect(sent.map((_, i) => reader.at(i))).toEqual(sent);
      }),
      { numRuns: 100 },
    );
  });

  it('a run of 100,000 open nodes that all streamed is compacted and replays to the run (no spread of its lines)', async () => {
    const { h, journal, feed, root } = started({ compactBytes: 1 });
    const N = 100_000;
    // Nested: each node under the one before, the run a chain 100,000 levels deep.
    const nodes: ExecNode[] = [];
    for (let i = 0; i < N; i++) nodes.push(feed.node('agent', 'running', { parentId: nodes[i - 1]?.id ?? root.id }));
    feed.tree(...nodes);
    for (const n of nodes) {
      feed.delta(n.id, 'text', `text of ${n.id}`);
      feed.delta(n.id, 'thinking', 'hm');
    }
    await journal.flush();
    const replayed = onDisk(h, feed.run)!;
    expect(replayed.nodes.length).toBe(N + 1);
    expect(replayed).toEqual(feed.run.record());
  }, 120_000); // seconds on a loaded machine; the bound is not a timing target

  it('at close the run file replaces the journal; reads find the run either way', async () => {
    const { h, journal, feed, root } = started();
    feed.turn(1, root.id);
    await journal.flush();
    expect(await readRun(h, 'thread1', 'run1')).toEqual(feed.run.record());
    expect(await listRuns(h, 'thread1')).toEqual([feed.run.record()]);
    const closed = { ...feed.run.record(), status: 'completed' as const, endedAt: 5000 };
    await journal.close('run1', closed);
    expect(fs.existsSync(journalFile(h, 'thread1', 'run1'))).toBe(false);
    expect(await readRun(h, 'thread1', 'run1')).toEqual(closed);
  });

  it('a start repairs a journal a dead host left (its last line cut short), and drops one beside a finished run file', async () => {
    const { h, journal, feed, root } = started();
    feed.turn(1, root.id);
    const llm = feed.node('llm', 'running', { parentId: root.id });
    feed.tree(llm);
    feed.delta(llm.id, 'text', 'half a rep');
    await journal.flush();
    const file = journalFile(h, 'thread1', 'run1');
    fs.appendFileSync(file, '{"k":"text","nodeId":"run1.9","chan'); // the host died mid-write
    // Another run closed, but its host died before removing the journal.
    const other = new Feed(journal, 'run2');
    await journal.flush();
    fs.mkdirSync(path.dirname(runFile(h, 'thread1', 'run2')), { recursive: true });
    fs.writeFileSync(runFile(h, 'thread1', 'run2'), JSON.stringify({ ...other.run.record(), status: 'completed', endedAt: 3000 }));

    const repair = await repairJournal(h);
    expect(repair.repaired).toEqual(['run1']);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(journalFile(h, 'thread1', 'run2'))).toBe(false);
    const rec = await readRun(h, 'thread1', 'run1');
    expect(rec.status).toBe('interrupted');
    expect(rec.resultPending).toBe(true);
    const cut = rec.nodes.find((n) => n.id === llm.id)!;
    expect([cut.status, (cut.output as { text: string }).text]).toEqual(['interrupted', 'half a rep']);
    // What the run added: the finished turn and the partial reply, marked interrupted.
    expect(rec.messages).toHaveLength(2);
    expect((await readRun(h, 'thread1', 'run2')).status).toBe('completed');
  });
});
