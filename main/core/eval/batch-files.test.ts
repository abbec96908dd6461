/**
 * listBatches: the batch folders of a workspace's evals/ folder, good ones newest first, then
 * those that cannot be used with why; a copied batch folder (same id) is one of the latter.
 * readResults: the finished cases, and the numbers of lines that could not be read.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { batchSpec } from '../../../tests/support/batch-spec';
import { BATCH_FILE, RESULTS_FILE, listBatches, readResults, writeBatchSpec } from './batch-files';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});


describe('listBatches', () => {
  it('lists good batches newest first; a copied folder with the same id is listed as not usable, naming the original', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'stepwise-evals-'));
    roots.push(root);
    await writeBatchSpec(path.join(root, 'arithmetic', 'b-old'), batchSpec('b-old', 1));
    await writeBatchSpec(path.join(root, 'arithmetic', 'b-new'), batchSpec('b-new', 2));
    // Copies sort before and after the original by path: the folder named by the id keeps it either way.
    cpSync(path.join(root, 'arithmetic', 'b-old'), path.join(root, 'arithmetic', 'a-copy'), { recursive: true });
    cpSync(path.join(root, 'arithmetic', 'b-old'), path.join(root, 'arithmetic', 'z-copy'), { recursive: true });
    writeFileSync(path.join(root, 'arithmetic', 'z-copy', 'results.jsonl'), '');
    const broken = path.join(root, 'arithmetic', 'broken');
    await writeBatchSpec(broken, batchSpec('broken', 3));
    writeFileSync(path.join(broken, BATCH_FILE), '{"id": "broken",');

    const listed = await listBatches(root);
    const shown = listed.map((e) => ('spec' in e ? `${path.basename(e.dir)}: ok` : `${path.basename(e.dir)}: ${e.error.message}`));
    const copy = (name: string) => `${name}: ${BATCH_FILE} repeats the id "b-old" of the batch in ${path.join('arithmetic', 'b-old')} (a copied folder?): give it a new "id", or remove the folder`;
    expect(shown.slice(0, 4)).toEqual(['b-new: ok', 'b-old: ok', copy('a-copy'), copy('z-copy')]);
    expect(shown[4]).toMatch(/^broken: \.batch\.json is not JSON: line 1, column \d+: /);
    expect(listed).toHaveLength(5);
  });
});

describe('readResults', () => {
  it('skips unreadable lines and names them by 1-based line number; the last line of a case wins; a cut-off end is reported', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'stepwise-results-'));
    roots.push(dir);
    const line = (caseId: string, status: string) => JSON.stringify({ caseId, variant: 'base', status, assertions: [], startedAt: 1, endedAt: 2, attempts: 1 });
    writeFileSync(path.join(dir, RESULTS_FILE), [line('a', 'fail'), '{"caseId":"b",', '', line('a', 'pass'), '[1]', line('c', 'pass').slice(0, 12)].join('\n'));
    const read = await readResults(dir);
    expect(read.skipped).toEqual([2, 5, 6]);
    expect(read.cutShort).toBe(true);
    expect(read.results.map((r) => `${r.caseId}:${r.status}`)).toEqual(['a:pass']);
  });
});
