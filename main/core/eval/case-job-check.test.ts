import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkCaseJob, checkCaseOutput } from './case-job-check';
import { isSafeId } from '../journal/journal';
import type { CaseJob, CaseRunOutput } from './case-run';
import type { Thread } from '../../../shared/thread/schema';

const thread: Thread = {
  version: 1,
  id: 'case-thread-1',
  title: 'Case',
  model: { provider: 'scripted', id: 'scripted', params: {} },
  context: { systemPrompt: '', tools: [], messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Go' }] }] },
  runRefs: [],
};
const job: CaseJob = { batchId: 'b1', caseId: 'c1', variant: 'base', thread, assertions: [], vars: {}, maxTurns: 3, attempt: 1, file: 'c1.json' };

function answer(runId = 'run-1', threadId = thread.id): CaseRunOutput {
  const node = { id: 'n1', runId, kind: 'run' as const, name: 'run', status: 'completed' as const, startedAt: 1 };
  return {
    result: { caseId: 'c1', variant: 'base', status: 'passed', assertions: [], startedAt: 1, endedAt: 2, attempts: 1, threadId, runId },
    thread: { ...thread, id: threadId, runRefs: [{ id: runId, startedAt: 1, status: 'completed', mode: 'react' }] },
    run: { runId, threadId, mode: 'react', status: 'completed', startedAt: 1, nodes: [node], records: [] },
  };
}

describe('checkCaseJob', () => {
  it('takes a well-formed job and refuses a thread id that is not safe to name a file', () => {
    expect(checkCaseJob(job)).toMatchObject({ ok: true });
    for (const id of ['../victim', 'a/b', '..', '.', '', 'x'.repeat(201), 'sp ace']) {
      const r = checkCaseJob({ ...job, thread: { ...thread, id } });
      expect(r.ok).toBe(false);
    }
    expect(checkCaseJob({ ...job, thread: { ...thread, id: '../victim' } })).toEqual({ ok: false, problem: 'malformed case job: thread id "../victim" is not a safe id (1–200 of A–Z a–z 0–9 . _ -)' });
  });

  it('a job is taken exactly when its thread id is a safe id (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1, maxLength: 220 }), fc.stringMatching(/^[A-Za-z0-9._-]{1,200}$/)), (id) => {
        expect(checkCaseJob({ ...job, thread: { ...thread, id } }).ok).toBe(isSafeId(id));
      }),
    );
  });
});

describe('checkCaseOutput', () => {
  it('takes the answer about its job', () => {
    expect(checkCaseOutput(answer(), job)).toMatchObject({ ok: true });
    const noRun: CaseRunOutput = { result: { caseId: 'c1', variant: 'base', status: 'error', error: 'x', assertions: [], startedAt: 1, endedAt: 2, attempts: 1 } };
    expect(checkCaseOutput(noRun, job)).toMatchObject({ ok: true });
  });

  it('refuses an answer whose thread or run is another thread\'s', () => {
    const foreign = answer('run-1', 'victim-thread');
    expect(checkCaseOutput(foreign, job)).toEqual({ ok: false, problem: 'the worker\'s answer is not about this case: its result is for thread "victim-thread"' });
    delete foreign.result.threadId;
    expect(checkCaseOutput(foreign, job)).toEqual({ ok: false, problem: 'the worker\'s answer is not about this case: its run is of thread "victim-thread"' });
    const threadOnly = answer();
    threadOnly.thread!.id = 'victim-thread';
    expect(checkCaseOutput(threadOnly, job)).toEqual({ ok: false, problem: 'the worker\'s answer is not about this case: its case thread is "victim-thread"' });
    const runNoThread = answer();
    delete runNoThread.thread;
    expect(checkCaseOutput(runNoThread, job)).toEqual({ ok: false, problem: 'the worker\'s answer has a run record but no case thread' });
  });

  it('refuses a node of another run, a result for another case and an unsafe run id', () => {
    const mixed = answer();
    mixed.run!.nodes.push({ ...mixed.run!.nodes[0], id: 'n2', runId: 'other-run' });
    expect(checkCaseOutput(mixed, job)).toEqual({ ok: false, problem: 'the worker\'s answer is not about this case: its run "run-1" has a node of run "other-run"' });
    const other = answer();
    other.result.caseId = 'c2';
    expect(checkCaseOutput(other, job)).toEqual({ ok: false, problem: 'the worker\'s answer is not about this case: its result is for case "c2"' });
    expect(checkCaseOutput(answer('../../victim/run-1'), job)).toEqual({ ok: false, problem: 'the worker\'s run id "../../victim/run-1" is not a safe id (1–200 of A–Z a–z 0–9 . _ -)' });
  });

  it('an answer is taken exactly when its run id is safe and all its ids are the job\'s (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1, maxLength: 200 }), fc.stringMatching(/^[A-Za-z0-9._-]{1,200}$/)), fc.constantFrom(thread.id, 'victim-thread'), fc.boolean(), (runId, threadId, nodeOfOther) => {
        const a = answer(runId, threadId);
        if (nodeOfOther) a.run!.nodes[0].runId = `${runId}x`;
        const r = checkCaseOutput(a, job);
        expect(r.ok).toBe(isSafeId(runId) && threadId === thread.id && !nodeOfOther);
      }),
    );
  });
});
