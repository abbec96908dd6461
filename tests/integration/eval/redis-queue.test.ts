/**
 * Cases through BullMQ on a real redis-server: `stepwise eval --queue` sends them and
 * `stepwise worker --queue` runs them (both real processes). A worker killed mid-case gets that
 * case retried once by another worker; killed again, the case ends `error` (exit 3).
 */
import { describe, expect, it } from 'vitest';
import { readFile, access, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { tempFolder } from '../../support/temp-folder';
import { useRedis } from '../../support/redis-server';
import { spawnCliGroup as cli, stopGroup as stop, type CliGroup as Proc } from '../../support/cli-process';
import { runFile } from '../../../main/core/journal/journal';
import { bundledRunner } from '../../support/runner-bundle';

const dir = tempFolder('stepwise-queue-', 'test');
const redis = useRedis();

const worker = (name: string) => cli(['worker', '--queue', redis().url, '--name', name, '--lock-ms', '1000', '--home', dir(`home-${name}`)]);
const killGroup = (p: Proc) => {
  try {
    process.kill(-p.child.pid!, 'SIGKILL');
  } catch {
    /* gone */
  }
};
async function files(tokensPerSecond: number) {
  const thread = {
    version: 1,
    id: '7b0e4f5e-5d7a-4a53-9a8e-3c1f6f1b0e02',
    title: 'Queue',
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond }, script: [{ text: `${'word '.repeat(60)}done` }] },
    context: { systemPrompt: '', tools: [], messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Go' }] }] },
    runRefs: [],
  };
  await writeFile(dir('t.json'), JSON.stringify(thread));
  await writeFile(dir('d.jsonl'), '{"id":"q1"}\n');
  await writeFile(dir('a.json'), JSON.stringify([{ type: 'contains', value: 'done' }]));
}

const evalArgs = () => ['eval', dir('t.json'), '--dataset', dir('d.jsonl'), '--assertions', dir('a.json'), '--queue', redis().url, '--json', dir('r.json'), '--home', dir('home-batch')];

describe('the Redis queue', () => {
  it('with no worker running, eval says so once after the wait, naming the queue', async () => {
    await files(100000);
    const e = cli(['eval', dir('t.json'), '--dataset', dir('d.jsonl'), '--queue', redis().url, '--home', dir('home-lonely')], { STEPWISE_NO_WORKER_AFTER_MS: '1500' });
    try {
      const hint = `stepwise eval: no worker has taken a case yet after 1500 ms; start one with \`stepwise worker --queue ${redis().url}\``;
      await expect.poll(() => e.out(), { timeout: 60_000, interval: 100 }).toContain(hint);
      expect(e.out().split(hint)).toHaveLength(2);
    } finally {
      await stop(e);
    }
    // The case left in the queue is removed by the cancel: the next tests' workers do not see it.
  }, 120_000);

  it('a worker runs the batch\'s case; its thread and run come back to the batch\'s home', async () => {
    await files(100000);
    const w = worker('w1');
    try {
      const e = cli(evalArgs());
      expect(await e.done).toBe(0);
      expect(e.out()).toMatch(/on redis:\/\/127\.0\.0\.1:\d+/);
      expect(e.out()).toMatch(/^PASS q1 \[base\]/m);
      const report = JSON.parse(await readFile(dir('r.json'), 'utf8'));
      const r = report.results[0];
      expect(r).toMatchObject({ status: 'passed', worker: 'w1', attempts: 1 });
      const batchDir = report.batch.dir as string;
      const thread = JSON.parse(await readFile(path.join(batchDir, r.threadFile), 'utf8'));
      expect(thread.runRefs.map((x: { id: string }) => x.id)).toEqual([r.runId]);
      await access(runFile(dir('home-batch'), thread.id, r.runId));
      expect(w.out()).toContain('case q1 [base] of batch');
    } finally {
      await stop(w);
    }
  }, 180_000);

  it('a worker\'s pooled runner processes are gone some seconds after its batch ends', async () => {
    await files(100000);
    const runner = bundledRunner();
    const w = cli(['worker', '--queue', redis().url, '--name', 'idle', '--home', dir('home-idle')], { STEPWISE_RUNNER_ENTRY: runner });
    try {
      const e = cli(evalArgs());
      expect(await e.done).toBe(0);
      // wrapper -> CLI -> runner processes (started detached, still the CLI's children).
      const runners = () => {
        const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
        const rows = out.split('\n').map((l) => l.trim().split(/\s+/));
        const cliPids = rows.filter((r) => Number(r[1]) === w.child.pid).map((r) => r[0]);
        return rows.filter((r) => cliPids.includes(r[1]!) && r.slice(2).join(' ').includes(path.basename(runner))).length;
      };
      expect(runners()).toBeGreaterThan(0); // kept for the batch's next case
      await expect.poll(runners, { timeout: 12_000, interval: 250 }).toBe(0); // the core's default kept them 30 s
    } finally {
      await stop(w);
    }
  }, 120_000);

  it('a worker killed mid-case: the case is retried once on another worker and passes', async () => {
    await files(20);
    const a = worker('a');
    const e = cli(evalArgs());
    let b: Proc | undefined;
    try {
      await expect.poll(() => a.out(), { timeout: 60_000, interval: 100 }).toContain(': started');
      killGroup(a);
      b = worker('b');
      expect(await e.done).toBe(0);
      const r = JSON.parse(await readFile(dir('r.json'), 'utf8')).results[0];
      expect(r).toMatchObject({ status: 'passed', worker: 'b', attempts: 2 });
      expect(b.out()).toContain('started (attempt 2)');
    } finally {
      killGroup(a);
      if (b) await stop(b);
      killGroup(e);
    }
  }, 180_000);

  it('killed twice, the case ends error and eval exits 3', async () => {
    await files(20);
    const a = worker('a2');
    const e = cli(evalArgs());
    let b: Proc | undefined;
    let c: Proc | undefined;
    try {
      await expect.poll(() => a.out(), { timeout: 60_000, interval: 100 }).toContain(': started');
      killGroup(a);
      b = worker('b2');
      await expect.poll(() => b!.out(), { timeout: 60_000, interval: 100 }).toContain('started (attempt 2)');
      killGroup(b);
      c = worker('c2');
      expect(await e.done).toBe(3);
      expect(e.out()).toMatch(/^ERROR q1 \[base\] .*its worker stopped while running it, twice/m);
      expect(c.out()).not.toContain('started');
    } finally {
      killGroup(a);
      if (b) killGroup(b);
      if (c) await stop(c);
      killGroup(e);
    }
  }, 180_000);
});
