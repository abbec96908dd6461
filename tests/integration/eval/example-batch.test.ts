/**
 * The example batch the Evaluate view opens on (resources/examples/evals/capitals/, made by
 * scripts/example-batch.mjs) is what a real run produces: `stepwise eval` run here again on the
 * example thread and dataset (real CLI, runner processes, scripted model) gives every case the
 * same status, final text and assertion results; each committed case run record is there for
 * a new home (resources/examples/.runs) and names its case thread's run; the batch file's paths
 * are relative to the workspace; and a seeded home gets those run records.
 */
import { cp, mkdir, readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalCli } from '../../support/eval-cli';
import { tempFolder } from '../../support/temp-folder';
import { seedExampleRuns } from '../../../main/web/seed';
import { WorkspaceStore } from '../../../main/core/workspace/workspace-store';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const EXAMPLES = path.join(ROOT, 'resources/examples');
const THREAD = 'Capital cities quiz.json';
const tmp = tempFolder('stepwise-example-batch-', 'test');

type Line = { caseId: string; status: string; runId: string; threadId: string; threadFile: string; outcome: { finalText: string }; assertions: { type: string; status: string; reason: string }[] };
const lines = (text: string): Line[] => text.trim().split('\n').map((l) => JSON.parse(l) as Line);
const key = (r: Line) => ({ caseId: r.caseId, status: r.status, finalText: r.outcome.finalText, assertions: r.assertions });

async function committedBatch(): Promise<string> {
  const dir = path.join(EXAMPLES, 'evals/capitals');
  const [batch] = await readdir(dir);
  return path.join(dir, batch);
}

describe('the example batch (issue 30 item 7)', () => {
  it('is what running the example thread over the example dataset gives', async () => {
    const home = tmp('home');
    await mkdir(path.join(home, 'workspace/evals'), { recursive: true });
    await cp(path.join(EXAMPLES, THREAD), path.join(home, 'workspace', THREAD));
    await cp(path.join(EXAMPLES, 'evals/capitals.dataset.json'), path.join(home, 'workspace/evals/capitals.dataset.json'));
    const ran = await evalCli(home, ['--dataset', path.join(home, 'workspace/evals/capitals.dataset.json'), path.join(home, 'workspace', THREAD)]);
    expect(ran.code, ran.stderr).toBe(1); // Australia fails on purpose
    const [fresh] = await readdir(path.join(home, 'workspace/evals/capitals'));
    const now = lines(await readFile(path.join(home, 'workspace/evals/capitals', fresh, 'results.jsonl'), 'utf8'));
    const stored = lines(await readFile(path.join(await committedBatch(), 'results.jsonl'), 'utf8'));
    const byCase = (rs: Line[]) => rs.map(key).sort((a, b) => a.caseId.localeCompare(b.caseId));
    expect(byCase(stored)).toEqual(byCase(now));
    expect(stored.filter((r) => r.status === 'failed').map((r) => r.caseId)).toEqual(['australia']);
  }, 120_000);

  it('keeps each case\'s run for a new home, and names its files relative to the workspace', async () => {
    const dir = await committedBatch();
    const spec = JSON.parse(await readFile(path.join(dir, '.batch.json'), 'utf8')) as { threadFile: string; datasetFile: string };
    expect(spec.threadFile).toBe(THREAD);
    expect(spec.datasetFile).toBe('evals/capitals.dataset.json');
    for (const r of lines(await readFile(path.join(dir, 'results.jsonl'), 'utf8'))) {
      const run = JSON.parse(await readFile(path.join(EXAMPLES, '.runs', r.threadId, `${r.runId}.json`), 'utf8')) as { runId: string; threadId: string; status: string };
      expect(run).toMatchObject({ runId: r.runId, threadId: r.threadId, status: 'completed' });
      const caseThread = JSON.parse(await readFile(path.join(dir, r.threadFile), 'utf8')) as { id: string; runRefs: { id: string }[] };
      expect(caseThread.id).toBe(r.threadId);
      expect(caseThread.runRefs.map((x) => x.id)).toContain(r.runId);
    }
  });

  it('a new home gets the examples\' runs, and its workspace no .runs folder', async () => {
    const home = tmp('seeded');
    const ws = new WorkspaceStore(path.join(home, 'workspace'));
    expect((await ws.seedExamples(EXAMPLES)).length).toBeGreaterThan(0);
    await seedExampleRuns(EXAMPLES, home);
    expect(existsSync(path.join(home, 'workspace/.runs'))).toBe(false);
    const r = lines(await readFile(path.join(await committedBatch(), 'results.jsonl'), 'utf8'))[0];
    expect(existsSync(path.join(home, 'runs', r.threadId, `${r.runId}.json`))).toBe(true);
    expect((await ws.list()).some((e) => e.path.startsWith('evals/capitals/') && e.kind === 'thread')).toBe(true);
  });
});
