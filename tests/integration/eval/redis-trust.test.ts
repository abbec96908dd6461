/**
 * What crosses Redis is hostile input, on a real redis-server: a job that asks a worker to run
 * commands, write files or move its working folder is refused by a `stepwise worker` (a real
 * process) unless its owner allowed those tools (`--allow-tools`), and even then the case runs
 * in a folder of its own under the worker's home; a worker's answer that is about another thread
 * or names a run the batch's home has already is refused, and no run file is written over.
 */
import { describe, expect, it, vi } from 'vitest';
import { access, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Queue, Worker } from 'bullmq';
import { tempFolder } from '../../support/temp-folder';
import { useRedis } from '../../support/redis-server';
import { spawnCliGroup, stopGroup as stop, type CliGroup } from '../../support/cli-process';
import { RedisScheduler, QUEUE_NAME, connectionOf } from '../../../main/core/eval/redis-scheduler';
import { runFile } from '../../../main/core/journal/journal';
import type { CaseJob, CaseRunOutput } from '../../../main/core/eval/case-run';
import type { Thread } from '../../../shared/thread/schema';

const dir = tempFolder('stepwise-trust-', 'file');
const redis = useRedis();

/** A `stepwise worker` process on the test's Redis, ready to take jobs. */
async function worker(name: string, extra: string[] = []): Promise<CliGroup> {
  const p = spawnCliGroup(['worker', '--queue', redis().url, '--name', name, '--home', dir(`home-${name}`), ...extra]);
  await expect.poll(() => p.out(), { timeout: 90_000, interval: 100 }).toContain('running cases from');
  return p;
}

/** The reviewer's hostile thread: a scripted model calling bash and write, both auto-approved, in `cwd`. */
function hostileThread(id: string, cwd: string | undefined, script: { name: string; arguments: Record<string, unknown> }[]): Thread {
  return {
    version: 1,
    id,
    title: 'hostile',
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 100000 }, script: [{ toolCalls: script }, { text: 'done' }] } as Thread['model'],
    settings: { allowTools: ['bash', 'write'], ...(cwd ? { cwd } : {}) },
    context: { systemPrompt: 'x', tools: [{ type: 'builtin', name: 'bash' }, { type: 'builtin', name: 'write' }], messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: 'go' }] }] },
    runRefs: [],
  };
}
const jobOf = (batchId: string, thread: Thread, caseId = 'c1'): CaseJob => ({ batchId, caseId, variant: 'base', thread, assertions: [], vars: {}, maxTurns: 3, attempt: 1, file: `${caseId}.json` });

async function exists(p: string): Promise<boolean> {
  return access(p).then(() => true, () => false);
}

describe('jobs from Redis get no more power than the worker\'s owner gave', () => {
  it('a default worker refuses a job using bash/write, settings.cwd or settings.allowTools; nothing is written', async () => {
    const target = dir('target-default');
    const w = await worker('plain');
    const s = new RedisScheduler({ url: new URL(redis().url), home: dir('bhome1') });
    try {
      const calls = [
        { name: 'bash', arguments: { command: `mkdir -p ${target} && echo pwned > ${target}/bash.txt` } },
        { name: 'write', arguments: { path: `${target}/write.txt`, content: 'outside\n' } },
      ];
      const withCwd = await s.run(jobOf('hostile-1', hostileThread('evil-thread-1', target, calls)), dir('batch1'), new AbortController().signal);
      expect(withCwd.result.status).toBe('error');
      expect(withCwd.result.error).toBe('the worker failed: refused: the job\'s thread sets settings.cwd, which a job may not (the worker runs each case in a folder of its own)');
      const noCwd = hostileThread('evil-thread-2', undefined, calls);
      const r2 = await s.run(jobOf('hostile-2', noCwd), dir('batch1'), new AbortController().signal);
      expect(r2.result.error).toBe('the worker failed: refused: the job\'s thread sets settings.allowTools to run "bash", "write" without approval, which the worker does not allow (--allow-tools)');
      delete noCwd.settings;
      const r3 = await s.run(jobOf('hostile-3', noCwd), dir('batch1'), new AbortController().signal);
      expect(r3.result.error).toBe('the worker failed: refused: the job\'s thread uses the built-in tool "bash", which runs commands on the worker (a worker started with --allow-tools bash runs it)');
      const unsafe = await s.run(jobOf('hostile-4', { ...noCwd, id: '../../victim' }), dir('batch1'), new AbortController().signal);
      expect(unsafe.result.error).toMatch(/^the worker failed: malformed case job: thread id "\.\.\/\.\.\/victim" is not a safe id/);
      expect(await exists(target)).toBe(false);
      expect(await exists(dir('home-plain', 'work', 'remote'))).toBe(false);
      expect(await exists(dir('home-plain', 'runs'))).toBe(false);
      expect(w.out()).toContain('case c1 [base] of batch hostile-1: refused: the job\'s thread sets settings.cwd');
    } finally {
      await s.close();
      await stop(w);
    }
  }, 180_000);

  it('with --allow-tools bash,write the tools run, in the case\'s own folder under the worker\'s home; settings.cwd is ignored', async () => {
    const target = dir('target-trusted');
    const w = await worker('trusted', ['--allow-tools', 'bash,write']);
    const s = new RedisScheduler({ url: new URL(redis().url), home: dir('bhome2') });
    try {
      const calls = [
        { name: 'bash', arguments: { command: 'pwd > where.txt && echo ran > bash.txt' } },
        { name: 'write', arguments: { path: 'written.txt', content: 'inside\n' } },
        { name: 'write', arguments: { path: dir('outside.txt'), content: 'outside\n' } },
      ];
      const job = jobOf('trusted-1', hostileThread('good-thread-1', target, calls));
      const out = await s.run(job, dir('batch2'), new AbortController().signal);
      expect(out.result).toMatchObject({ status: 'passed', worker: 'trusted', threadId: 'good-thread-1' });
      expect(await exists(target)).toBe(false);
      expect(await exists(dir('outside.txt'))).toBe(false);
      const remote = dir('home-trusted', 'work', 'remote', 'trusted-1');
      const folders = await readdir(remote);
      expect(folders).toEqual([expect.stringMatching(/^c1-[0-9a-f]{8}$/)]);
      const caseDir = path.join(remote, folders[0]);
      expect((await readdir(caseDir)).sort()).toEqual(['bash.txt', 'where.txt', 'written.txt']);
      expect((await readFile(path.join(caseDir, 'where.txt'), 'utf8')).trim()).toBe(caseDir);
      // The refused write came back to the model as a tool error naming the path as given.
      const run = JSON.parse(await readFile(runFile(dir('bhome2'), 'good-thread-1', out.result.runId!), 'utf8'));
      expect(JSON.stringify(run.nodes)).toContain('outside the working directory');
      // The batch's case thread keeps the job's settings, not the worker's folder.
      const thread = JSON.parse(await readFile(dir('batch2', 'c1.json'), 'utf8'));
      expect(thread.settings).toEqual({ allowTools: ['bash', 'write'], cwd: target });
    } finally {
      await s.close();
      await stop(w);
    }
  }, 180_000);
});

const thread = (id: string): Thread => ({ ...hostileThread(id, undefined, []), settings: {} });

describe('a worker\'s answer is about its job, and never writes over a run', () => {
  it('an answer with a foreign thread id or an existing run id is refused; the victim run files are unchanged', async () => {
    const home = dir('bhome3');
    const precious = '{"precious":"the victim thread\'s real run record"}';
    const victim = runFile(home, 'victim-thread', 'run-1');
    const existing = runFile(home, 'case-thread-existing', 'run-1');
    for (const f of [victim, existing]) {
      await mkdir(path.dirname(f), { recursive: true });
      await writeFile(f, precious);
    }
    // A hostile worker: answers each job with the run and thread ids its case id names.
    const fake = new Worker(
      QUEUE_NAME,
      async (j) => {
        const job = (j.data as { job: CaseJob }).job;
        const [threadId, runId] = job.caseId === 'foreign' ? ['victim-thread', 'run-1'] : job.caseId === 'existing' ? [job.thread.id, 'run-1'] : [job.thread.id, 'run-2'];
        const thread = { ...job.thread, id: threadId, runRefs: [{ id: runId, startedAt: 1, status: 'completed', mode: 'react' }] };
        const run = { runId, threadId, mode: 'react', status: 'completed', startedAt: 1, nodes: [{ id: 'n1', runId, kind: 'run', name: 'run', status: 'completed', startedAt: 1 }], records: [] };
        const out: CaseRunOutput = { result: { caseId: job.caseId, variant: job.variant, status: 'passed', assertions: [], startedAt: 1, endedAt: 2, attempts: 1 }, thread: thread as Thread, run: run as CaseRunOutput['run'] };
        return out;
      },
      { connection: connectionOf(new URL(redis().url)) },
    );
    await fake.waitUntilReady();
    const s = new RedisScheduler({ url: new URL(redis().url), home });
    try {
      const foreign = await s.run(jobOf('answers', thread('case-thread-foreign'), 'foreign'), dir('batch3'), new AbortController().signal);
      expect(foreign.result).toMatchObject({ status: 'error', error: 'the worker\'s answer is not about this case: its run is of thread "victim-thread"' });
      const again = await s.run(jobOf('answers', thread('case-thread-existing'), 'existing'), dir('batch3'), new AbortController().signal);
      expect(again.result).toMatchObject({ status: 'error', error: 'the worker\'s run id "run-1" names a run this home has already: not written over' });
      expect(await readFile(victim, 'utf8')).toBe(precious);
      expect(await readFile(existing, 'utf8')).toBe(precious);
      expect(await exists(dir('batch3', 'foreign.json'))).toBe(false);
      expect(await exists(dir('batch3', 'existing.json'))).toBe(false);
      // An honest answer is written as before.
      const honest = await s.run(jobOf('answers', thread('case-thread-honest'), 'honest'), dir('batch3'), new AbortController().signal);
      expect(honest.result.status).toBe('passed');
      expect(JSON.parse(await readFile(runFile(home, 'case-thread-honest', 'run-2'), 'utf8')).runId).toBe('run-2');
    } finally {
      await s.close();
      await fake.close();
    }
  }, 120_000);

  it('a job refused at once by its worker: the batch gets the worker\'s reason, even when the job is gone before it listens', async () => {
    // A refusal is immediate: the job can fail, and be removed (removeOnFail), before the batch
    // waits for it. Made certain here: the batch's add returns only once the job is gone.
    const w = await worker('fast');
    const s = new RedisScheduler({ url: new URL(redis().url), home: dir('bhome4') });
    const add = Queue.prototype.add;
    const spy = vi.spyOn(Queue.prototype, 'add').mockImplementation(async function (this: Queue, ...args: Parameters<Queue['add']>) {
      const job = await add.apply(this, args);
      await expect.poll(async () => (await this.getJob(job.id!)) === undefined, { timeout: 60_000, interval: 20 }).toBe(true);
      return job;
    });
    try {
      const out = await s.run(jobOf('fast-fail', hostileThread('t1', dir('nowhere'), [])), dir('batch4'), new AbortController().signal);
      expect(spy).toHaveBeenCalledOnce();
      expect(out.result.error).toBe('the worker failed: refused: the job\'s thread sets settings.cwd, which a job may not (the worker runs each case in a folder of its own)');
    } finally {
      spy.mockRestore();
      await s.close();
      await stop(w);
    }
  }, 120_000);
});
