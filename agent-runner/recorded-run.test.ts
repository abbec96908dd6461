/**
 * A time travel from a damaged run file: a record that is not a record (a hand edit left
 * `null`) is a clear error naming it, and a file that breaks the reading some other way ends
 * the run failed instead of leaving it open.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRun } from './run';
import type { RunSpec, RunnerToHost } from '../shared/protocol/runner';
import type { RunResult } from '../shared/protocol/envelopes';
import { scriptedThread } from '../tests/support/threads';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

/** A home holding run `old` of a thread, with the given run file content; the spec time-travels from its call 2. */
function fromDamaged(content: unknown): RunSpec {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-recorded-'));
  homes.push(home);
  const thread = scriptedThread([{ text: 'Again.' }]);
  fs.mkdirSync(path.join(home, 'runs', thread.id), { recursive: true });
  fs.writeFileSync(path.join(home, 'runs', thread.id, 'old.json'), JSON.stringify(content));
  return { runId: 'run1', threadId: thread.id, thread, mode: 'react', providers: [], home, workspaceDir: home, fromRun: { runId: 'old', fromCall: 2 } };
}

/** The run's status and its run node's error, as the run ended. */
async function result(spec: RunSpec): Promise<{ status: string; error?: string }> {
  const out: RunnerToHost[] = [];
  await startRun(spec, (m) => out.push(m)).done;
  const root = out.flatMap((m) => (m.type === 'tree_update' ? m.nodes : [])).filter((n) => n.kind === 'run').at(-1);
  return { status: (out.find((m) => m.type === 'run_result') as RunResult).status, error: root?.error?.message };
}

describe('time travel from a damaged run file', () => {
  it('a record that is null is an error naming it', async () => {
    const r = await result(fromDamaged({ runId: 'old', nodes: [], records: [{ runId: 'old', nodeId: 'n1', api: 'scripted', request: {}, events: [] }, null] }));
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/^Replay: .*old\.json records\[1\] is not a model call's record \(null\)\.$/);
  });

  it('a file that breaks the reading otherwise ends the run failed, saying why', async () => {
    const r = await result(fromDamaged({ runId: 'old', nodes: null, records: [] }));
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/^The run failed: /);
  });
});
