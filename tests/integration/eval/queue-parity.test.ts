/**
 * `stepwise eval --queue` and the local pool give the same result for every case and the same
 * exit code on one batch with passing, failing and erroring cases (docs/architecture.md#evaluation).
 * Real processes: `stepwise eval` both ways, one `stepwise worker`, a real redis-server. The
 * worker runs once with the batch's own home (one machine, both on the default ~/.stepwise: its
 * run records then land in the batch's home before its answer does) and once with a home of its own.
 */
import { describe, expect, it } from 'vitest';
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempFolder } from '../../support/temp-folder';
import { useRedis } from '../../support/redis-server';
import { spawnCliGroup as cli, stopGroup as stop } from '../../support/cli-process';
import { runFile } from '../../../main/core/journal/journal';
import type { CaseResult } from '../../../shared/eval/results';

const dir = tempFolder('stepwise-parity-', 'test');
const redis = useRedis();

/** Each case's answer is picked by its `q`: the right answer, a wrong one, or a provider error. */
const thread = {
  version: 1,
  id: '6a0e4f5e-5d7a-4a53-9a8e-3c1f6f1b0e21',
  title: 'Parity',
  model: {
    provider: 'scripted',
    id: 'scripted',
    params: { tokensPerSecond: 100000 },
    script: [{ when: 'boom', error: 'the provider broke' }, { when: 'wrong', text: 'five' }, { text: 'The answer is 4.' }],
  },
  context: { systemPrompt: '', tools: [], messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Case {{q}}' }] }] },
  runRefs: [],
};
const cases = [
  { id: 'pass-1', q: 'right' },
  { id: 'fail-1', q: 'wrong' },
  { id: 'error-1', q: 'boom' },
  { id: 'pass-2', q: 'fine' },
  { id: 'fail-2', q: 'wrong again' },
];

/** What a person compares of a case: everything but its ids, clock times and latency. */
function comparable(r: CaseResult) {
  return {
    caseId: r.caseId,
    status: r.status,
    runStatus: r.runStatus,
    error: r.error,
    attempts: r.attempts,
    finalText: r.outcome?.finalText,
    turns: r.outcome?.turns,
    tokens: [r.outcome?.inputTokens, r.outcome?.outputTokens],
    assertions: r.assertions,
  };
}

async function batch(name: string, home: string, extra: string[] = []): Promise<{ code: number | null; results: CaseResult[]; out: string }> {
  const report = dir(`${name}.json`);
  const e = cli(['eval', dir('t.json'), '--dataset', dir('d.jsonl'), '--assertions', '[{"type":"contains","value":"4"}]', '--json', report, '--home', home, ...extra]);
  const code = await e.done;
  const results = (JSON.parse(await readFile(report, 'utf8')) as { results: CaseResult[] }).results;
  return { code, results: results.sort((a, b) => a.caseId.localeCompare(b.caseId)), out: e.out() };
}

describe('the queue and the local pool', () => {
  it('give the same result per case and the same exit code, whichever home the worker has', async () => {
    await writeFile(dir('t.json'), JSON.stringify(thread));
    await writeFile(dir('d.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n'));
    const local = await batch('local', dir('home-local'));
    expect(local.results.map((r) => [r.caseId, r.status])).toEqual([
      ['error-1', 'error'],
      ['fail-1', 'failed'],
      ['fail-2', 'failed'],
      ['pass-1', 'passed'],
      ['pass-2', 'passed'],
    ]);
    expect(local.code).toBe(3);

    for (const shared of [true, false]) {
      const home = dir(shared ? 'home-shared' : 'home-batch');
      const w = cli(['worker', '--queue', redis().url, '--concurrency', '1', '--name', 'w', '--home', shared ? home : dir('home-worker')]);
      try {
        const queued = await batch(shared ? 'shared' : 'own', home, ['--queue', redis().url]);
        expect(queued.results.map(comparable), queued.out).toEqual(local.results.map(comparable));
        expect(queued.code).toBe(local.code);
        // Every case that ran opens from the batch's home like a local case's run.
        for (const r of queued.results) await access(runFile(home, r.threadId!, r.runId!));
        expect(queued.results.every((r) => r.worker === 'w')).toBe(true);
        expect(path.basename(queued.results[0]!.threadFile!)).toBe('error-1.json');
      } finally {
        await stop(w);
      }
    }
  }, 240_000);
});
