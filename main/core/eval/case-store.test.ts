import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CASES_FILE, CaseStoreWriter, materializeCase, storedCase } from './case-store';
import { RESULTS_FILE, readResults } from './batch-files';
import { runFile } from '../journal/journal';
import { loadThreadFile } from '../threads/thread-file';
import type { CaseResult } from '../../../shared/eval/results';
import type { Thread } from '../../../shared/thread/schema';
import type { RunRecord } from '../../../shared/protocol/host-api';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'stepwise-case-store-'));
  roots.push(d);
  return d;
}

const thread = (id: string): Thread => ({
  version: 1,
  id,
  title: `Case ${id}`,
  model: { provider: 'scripted', id: 'scripted', params: {} },
  context: { systemPrompt: '', tools: [], messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Go' }] }] },
  runRefs: [{ id: `run-${id}`, startedAt: 1, status: 'completed', mode: 'react' }],
}) as Thread;
const run = (id: string): RunRecord => ({ runId: `run-${id}`, threadId: id, mode: 'react', status: 'completed', startedAt: 1, endedAt: 2, nodes: [] }) as unknown as RunRecord;
const result = (caseId: string): CaseResult => ({ caseId, variant: 'base', status: 'passed', assertions: [], startedAt: 1, endedAt: 2, attempts: 1, threadFile: `${caseId}.json` });

describe('the case store', () => {
  it('writes the cases finishing together in one group: each resolves once its store line and result line are in the files', async () => {
    const dir = tmp();
    const w = new CaseStoreWriter(dir, { groupMs: 30 });
    const acked: string[] = [];
    const adds = ['a', 'b', 'c'].map((id) => w.add(result(id), { file: `${id}.json`, thread: thread(id), run: run(id) }).then(() => acked.push(id)));
    expect(existsSync(path.join(dir, RESULTS_FILE))).toBe(false); // nothing before the group is written
    await Promise.all(adds);
    expect(acked).toEqual(['a', 'b', 'c']);
    expect(readFileSync(path.join(dir, CASES_FILE), 'utf8').trim().split('\n')).toHaveLength(3);
    expect((await readResults(dir)).results.map((r) => r.caseId)).toEqual(['a', 'b', 'c']);
    await w.close();
  });

  it('starts on a new line after a line a crash cut short, and finds each case by its thread file', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, CASES_FILE), `{"file":"a.json","thread":{"id":`); // killed mid-write
    appendFileSync(path.join(dir, RESULTS_FILE), '{"caseId":"a","var');
    const w = new CaseStoreWriter(dir);
    await w.add(result('b'), { file: 'b.json', thread: thread('b'), run: run('b') });
    await w.close();
    expect(await storedCase(path.join(dir, 'a.json'))).toBeUndefined();
    expect((await storedCase(path.join(dir, 'b.json')))?.thread.id).toBe('b');
    const read = await readResults(dir);
    expect(read.results.map((r) => r.caseId)).toEqual(['b']);
    expect(read.skipped).toEqual([1]);
  });

  it('the last line of a case wins (a case run again after a resume)', async () => {
    const dir = tmp();
    const w = new CaseStoreWriter(dir, { maxGroup: 1 });
    await w.add(result('a'), { file: 'a.json', thread: { ...thread('a'), title: 'first' }, run: run('a') });
    await w.add(result('a'), { file: 'a.json', thread: { ...thread('a'), title: 'second' }, run: run('a') });
    await w.close();
    expect((await storedCase(path.join(dir, 'a.json')))?.thread.title).toBe('second');
  });

  it('materializes a case when its thread file is opened: the run file in the home, then the thread file that names it', async () => {
    const home = tmp();
    const dir = path.join(home, 'workspace', 'evals', 'd', 'b1');
    const w = new CaseStoreWriter(dir);
    for (const id of ['c1', 'c2']) await w.add(result(id), { file: `${id}.json`, thread: thread(id), run: run(id) });
    await w.close();
    const file = path.join(dir, 'c2.json');
    expect(existsSync(file)).toBe(false);
    expect(await materializeCase(home, file)).toBe(true);
    expect((await loadThreadFile(file)).runRefs.map((r) => r.id)).toEqual(['run-c2']);
    expect(JSON.parse(readFileSync(runFile(home, 'c2', 'run-c2'), 'utf8')).runId).toBe('run-c2');
    expect(existsSync(path.join(dir, 'c1.json'))).toBe(false); // only the one opened
    // Written once: an edited thread file is never replaced by the store's copy.
    writeFileSync(file, readFileSync(file, 'utf8').replace('Case c2', 'Edited'));
    expect(await materializeCase(home, file)).toBe(false);
    expect((await loadThreadFile(file)).title).toBe('Edited');
    expect(await materializeCase(home, path.join(dir, 'nope.json'))).toBe(false);
  });
});
