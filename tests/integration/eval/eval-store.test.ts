/**
 * What an evaluation writes (docs/architecture.md#evaluation): one case store and one results
 * file per batch, written in groups, through real processes (`stepwise eval`, `stepwise serve`,
 * the built runner). An acknowledged case (its PASS line printed) survives a kill -9 of the
 * whole `stepwise eval` process group, and `--resume` runs only the rest; a case's run opens,
 * lists, branches and re-runs in the app (the web host over its WebSocket) like any run.
 */
import { describe, expect, it } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { tempFolder } from '../../support/temp-folder';
import { spawnCliGroup } from '../../support/cli-process';
import { evalCli, evalThread } from '../../support/eval-cli';
import { connectWs } from '../../support/ws-client';
import { readResults } from '../../../main/core/eval/batch-files';
import { CASES_FILE } from '../../../main/core/eval/case-store';
import type { CaseResult } from '../../../shared/eval/results';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const dir = tempFolder('stepwise-eval-store-', 'test');

async function files(n: number, tokensPerSecond: number): Promise<void> {
  await writeFile(dir('t.json'), JSON.stringify(evalThread('The answer is 4.', tokensPerSecond)));
  await writeFile(dir('d.jsonl'), Array.from({ length: n }, (_, i) => JSON.stringify({ id: `c${i}`, question: String(i) })).join('\n'));
}
const batchDirOf = (out: string) => out.match(/^results: (.+)$/m)?.[1];

describe('an evaluation\'s case store', () => {
  it('keeps every acknowledged case through a kill -9 of the eval process group; --resume runs only the rest', async () => {
    await files(80, 400);
    const e = spawnCliGroup(['eval', dir('t.json'), '--dataset', dir('d.jsonl'), '--assertions', '[{"type":"contains","value":"4"}]', '--concurrency', '2', '--out', dir('evals'), '--home', dir('home')]);
    const acked = () => [...e.out().matchAll(/^PASS (c\d+) /gm)].map((m) => m[1]!);
    await expect.poll(() => acked().length, { timeout: 120_000, interval: 20 }).toBeGreaterThanOrEqual(12);
    process.kill(-e.child.pid!, 'SIGKILL');
    await e.done;
    const before = acked();
    expect(before.length).toBeLessThan(80); // killed mid-batch
    const [batch] = await readdir(dir('evals'));
    const batchDir = dir('evals', batch!);
    const kept = (await readResults(batchDir)).results.map((r) => r.caseId);
    for (const id of before) expect(kept).toContain(id);
    // No file per case: the batch folder holds its three files, and the home no run folder (the runs are in the store).
    expect((await readdir(batchDir)).sort()).toEqual(['.batch.json', CASES_FILE, 'results.jsonl']);
    expect(existsSync(dir('home', 'runs')) ? await readdir(dir('home', 'runs')) : []).toEqual([]);

    const again = await evalCli(dir('home'), ['--resume', batchDir]);
    expect(again.code, again.stderr).toBe(0);
    const rerun = [...again.stdout.matchAll(/^PASS (c\d+) /gm)].map((m) => m[1]!);
    for (const id of kept) expect(rerun).not.toContain(id);
    const all = (await readResults(batchDir)).results;
    expect(all.map((r) => r.caseId).sort()).toEqual(Array.from({ length: 80 }, (_, i) => `c${i}`).sort());
    expect(all.every((r) => r.status === 'passed')).toBe(true);
  }, 240_000);

  it('a case\'s run opens in the app from the store: thread, Run history, the run, a branch, a re-run', async () => {
    await files(3, 100000);
    const ran = await evalCli(dir('home'), [dir('t.json'), '--dataset', dir('d.jsonl'), '--assertions', '[{"type":"contains","value":"4"}]', '--json', dir('r.json')]);
    expect(ran.code, ran.stderr).toBe(0);
    const results = (JSON.parse(await readFile(dir('r.json'), 'utf8')) as { results: CaseResult[] }).results;
    const batchDir = batchDirOf(ran.stdout)!;
    const r = results.find((x) => x.caseId === 'c1')!;
    expect(existsSync(path.join(batchDir, r.threadFile!))).toBe(false); // in the store until opened

    const serve = spawn(process.execPath, [path.join(ROOT, 'bin/stepwise.mjs'), 'serve', '--no-open', '--no-seed', '--home', dir('home')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
    let out = '';
    serve.stdout.on('data', (d) => (out += d));
    serve.stderr.on('data', (d) => (out += d));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 100 }).toMatch(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/);
      const url = new URL(out.match(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/)![0]);
      const ws = await connectWs(url.origin, url.searchParams.get('token')!);
      try {
        const rel = path.relative(dir('home', 'workspace'), path.join(batchDir, r.threadFile!)).split(path.sep).join('/');
        const opened = await ws.call<{ thread: { id: string; runRefs: { id: string }[]; context: { messages: { role: string }[] } } }>('thread.open', { path: rel });
        expect(opened.thread.id).toBe(r.threadId);
        expect(opened.thread.runRefs.map((x) => x.id)).toEqual([r.runId]);
        expect(opened.thread.context.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
        expect((await ws.call<{ id: string }[]>('run.list', { threadId: r.threadId })).map((x) => x.id)).toEqual([r.runId]);
        const rec = await ws.call<{ runId: string; status: string; nodes: { kind: string }[] }>('run.get', { threadId: r.threadId, runId: r.runId });
        expect(rec).toMatchObject({ runId: r.runId, status: 'completed' });
        expect(rec.nodes.some((n) => n.kind === 'llm')).toBe(true);
        const branch = await ws.call<{ path: string }>('thread.branch', { threadId: r.threadId, messageId: 'u1' });
        expect(existsSync(path.join(dir('home', 'workspace'), branch.path))).toBe(true);
        await ws.call('stream.subscribe', { threadId: r.threadId });
        const { runId } = await ws.call<{ runId: string }>('run.start', { threadId: r.threadId, mode: 'step' });
        await ws.waitFor((p) => p.type === 'run_ended' && p.runId === runId, 60_000);
        expect((await ws.call<{ id: string }[]>('run.list', { threadId: r.threadId })).map((x) => x.id)).toEqual([r.runId, runId]);
      } finally {
        ws.close();
      }
    } finally {
      serve.kill('SIGTERM');
      await new Promise((resolve) => serve.once('close', resolve));
    }
  }, 180_000);
});
