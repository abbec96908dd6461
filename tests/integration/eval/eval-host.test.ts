/**
 * Evaluation through the host API (eval.* requests on a real host core, cases run by real runner
 * processes on the offline scripted model): "New dataset" never replaces an existing dataset;
 * a batch file that does not check (hand-edited, cut short) is listed with its reason instead
 * of breaking the batch list, and resuming it names the file and the field; a cancel that arrives
 * while a case's run is starting still cancels it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostPush } from '../../../shared/protocol/host-api';
import type { Dataset } from '../../../shared/eval/dataset';
import { emptyDataset } from '../../../shared/eval/dataset';
import { scriptedThread } from '../../support/threads';
import type { Static } from '@sinclair/typebox';
import type { BatchInfoSchema } from '../../../shared/protocol/contract/eval-methods';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, rejection, waitFor, words, hostCores, writeThread } from '../../support/host-harness';

const startCore = hostCores();

type BatchInfo = Static<typeof BatchInfoSchema>;

const arithmetic = (): Dataset => ({
  ...emptyDataset('arithmetic'),
  assertions: [{ type: 'contains', value: '4' }],
  cases: [
    { id: 'c1', vars: { q: '2+2' }, expected: '4' },
    { id: 'c2', vars: { q: '1+3' }, expected: '4' },
  ],
});

/** Pushes of a connection, and a wait for a batch's last progress push. */
function recorder(onPush?: (p: HostPush) => void) {
  const pushes: HostPush[] = [];
  const send = (p: HostPush) => {
    pushes.push(p);
    onPush?.(p);
  };
  const ended = (batchId: string) => waitFor(() => pushes.some((p) => p.type === 'eval_progress' && p.batchId === batchId && p.ended), 60_000, `batch ${batchId} ended`);
  return { pushes, send, ended };
}

describe('eval.saveDataset without a path (New dataset)', () => {
  it('never replaces a dataset of the same name: the new one takes a free name', async () => {
    const home = makeHome();
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const conn = core.connect(() => {});
    const file = (rel: string) => path.join(home, 'workspace', rel);

    expect(await conn.request('eval.saveDataset', { dataset: arithmetic() })).toEqual({ path: 'datasets/arithmetic.dataset.json' });
    expect(await conn.request('eval.saveDataset', { dataset: emptyDataset('arithmetic') })).toEqual({ path: 'datasets/arithmetic 2.dataset.json' });
    expect(JSON.parse(fs.readFileSync(file('datasets/arithmetic.dataset.json'), 'utf8')).cases).toHaveLength(2);

    // Several windows at once: each gets its own file.
    const saved = (await Promise.all([1, 2, 3].map(() => conn.request('eval.saveDataset', { dataset: emptyDataset('arithmetic') })))) as { path: string }[];
    expect(new Set(saved.map((s) => s.path)).size).toBe(3);
    const listed = (await conn.request('eval.datasets', {})) as { path: string; cases: number }[];
    expect(listed).toHaveLength(5);
    expect(listed.find((d) => d.path === 'datasets/arithmetic.dataset.json')?.cases).toBe(2);

    // Saving to a given path still writes that file (an edit of an open dataset).
    await conn.request('eval.saveDataset', { path: 'datasets/arithmetic.dataset.json', dataset: { ...arithmetic(), cases: [] } });
    expect(JSON.parse(fs.readFileSync(file('datasets/arithmetic.dataset.json'), 'utf8')).cases).toHaveLength(0);
  });
});

describe('batch files that do not check', () => {
  it('are listed by eval.batches after the good batch with a one-line reason; resuming one names the file and the field', async () => {
    const home = makeHome();
    writeThread(home, 't.json', scriptedThread([{ text: 'It is 4.' }]));
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20 });
    const rec = recorder();
    const conn = core.connect(rec.send);
    const { path: datasetPath } = (await conn.request('eval.saveDataset', { dataset: arithmetic() })) as { path: string };
    const good = (await conn.request('eval.startBatch', { threadPath: 't.json', datasetPath, variants: [{ name: 'base' }], concurrency: 2 })) as BatchInfo;
    await rec.ended(good.id);

    const evals = path.join(home, 'workspace', path.dirname(good.path));
    const spec = JSON.parse(fs.readFileSync(path.join(home, 'workspace', good.path, '.batch.json'), 'utf8')) as Record<string, unknown>;
    const bad = (name: string, value: unknown) => {
      fs.mkdirSync(path.join(evals, name));
      fs.writeFileSync(path.join(evals, name, '.batch.json'), typeof value === 'string' ? value : JSON.stringify(value));
    };
    bad('hollow', { id: 'hollow', createdAt: 2, variants: [], dataset: {}, thread: {} });
    bad('greedy', { ...spec, id: 'greedy', concurrency: 100_000 });
    bad('no-cases', { ...spec, id: 'no-cases', dataset: { ...(spec.dataset as object), cases: 'many' } });
    bad('cut', JSON.stringify(spec).slice(0, 200));

    const list = (await conn.request('eval.batches', {})) as BatchInfo[];
    expect(list[0]).toMatchObject({ id: good.id, progress: { total: 2, done: 2 } });
    expect(list[0]!.error).toBeUndefined();
    // The others follow, each with its id (or folder name), its folder and a one-line reason; nothing to resume.
    const dataset = path.dirname(good.path);
    const unreadable = Object.fromEntries(list.slice(1).map((b) => [b.path, b]));
    expect(Object.keys(unreadable).sort()).toEqual(['cut', 'greedy', 'hollow', 'no-cases'].map((n) => `${dataset}/${n}`));
    expect(unreadable[`${dataset}/greedy`]).toMatchObject({ id: 'greedy', name: 'greedy', live: false, variants: [], progress: { total: 0, done: 0 } });
    expect(unreadable[`${dataset}/greedy`]!.error).toMatch(/^\.batch\.json is not a usable batch file: \/concurrency: .*32/);
    expect(unreadable[`${dataset}/hollow`]!.error).toMatch(/\/name: required property is missing/);
    // A file cut short names no id: the folder's name stands for it; the reason gives line and column, not the text.
    expect(unreadable[`${dataset}/cut`]).toMatchObject({ id: 'cut', name: 'cut', error: expect.stringMatching(/^\.batch\.json is not JSON: line 1, column \d+: the text ends early/) });
    for (const b of list.slice(1)) {
      expect(b.error).not.toMatch(/[\r\n]/);
      expect(b.error).not.toContain(home);
      expect(b.createdAt).toBeGreaterThan(0);
    }

    const greedy = await rejection(conn.request('eval.resumeBatch', { batchId: 'greedy' }));
    expect(greedy.code).toBe('invalid_batch');
    expect(greedy.message).toContain(`${path.dirname(good.path)}/greedy/.batch.json`);
    expect(greedy.message).toMatch(/\/concurrency: .*32/);
    expect(greedy.message).not.toContain(home);
    const hollow = await rejection(conn.request('eval.batch', { batchId: 'hollow' }));
    expect(hollow.message).toMatch(/hollow\/\.batch\.json is not a usable batch file: \/name: required property is missing/);
    const noCases = await rejection(conn.request('eval.resumeBatch', { batchId: 'no-cases' }));
    expect(noCases.message).toMatch(/\/dataset\/cases/);
    expect((await rejection(conn.request('eval.resumeBatch', { batchId: 'nowhere' }))).code).toBe('not_found');
    // The good batch is still there to read.
    expect(((await conn.request('eval.batch', { batchId: good.id })) as { results: unknown[] }).results).toHaveLength(2);
    expect(list[0]!.skippedLines).toBeUndefined();
    // A results line that cannot be read is counted, not passed over: its case is not done.
    const resultsFile = path.join(home, 'workspace', good.path, 'results.jsonl');
    const lines = fs.readFileSync(resultsFile, 'utf8').split('\n');
    fs.writeFileSync(resultsFile, [lines[0]!.slice(0, 40), ...lines.slice(1)].join('\n'));
    const damaged = (await conn.request('eval.batch', { batchId: good.id })) as { info: BatchInfo; results: unknown[] };
    expect(damaged.results).toHaveLength(1);
    expect(damaged.info).toMatchObject({ skippedLines: 1, progress: { total: 2, done: 1 } });
  }, 90_000);
});

describe('eval.cancelBatch', () => {
  it('cancels a case whose run is starting when the cancel comes (it is not recorded)', async () => {
    const home = makeHome();
    // About 10 s of streaming: it would complete (and be recorded) were the cancel lost.
    writeThread(home, 't.json', scriptedThread([{ text: `4 ${words(500)}` }], { tokensPerSecond: 50 }));
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20 });
    let cancelled = false;
    const conn = core.connect((p) => rec.send(p));
    const rec = recorder((p) => {
      // The case has been handed to the scheduler (running 1): cancel just after, while its run starts.
      if (p.type !== 'eval_progress' || p.progress.running !== 1 || cancelled) return;
      cancelled = true;
      setImmediate(() => void conn.request('eval.cancelBatch', { batchId: p.batchId }));
    });
    await conn.request('stream.subscribe', {}); // every thread's run_ended, the case thread's included
    const { path: datasetPath } = (await conn.request('eval.saveDataset', { dataset: { ...arithmetic(), cases: [arithmetic().cases[0]!] } })) as { path: string };
    const info = (await conn.request('eval.startBatch', { threadPath: 't.json', datasetPath, variants: [{ name: 'base' }], concurrency: 1 })) as BatchInfo;
    await rec.ended(info.id);
    expect(cancelled).toBe(true);
    const { results } = (await conn.request('eval.batch', { batchId: info.id })) as { results: unknown[] };
    expect(results).toEqual([]);
    const runEnds = rec.pushes.filter((p) => p.type === 'run_ended');
    expect(runEnds).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  }, 60_000);
});
