/**
 * Cancel is a message first, then a kill after the grace period: a runner that ignores both
 * the cancel message and SIGTERM is killed, its run ends with the partial text kept, and the
 * host goes on.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostPush } from '../../../shared/protocol/host-api';
import { scriptedThread } from '../../support/threads';
import { hostCores } from '../../support/host-harness';

const startCore = hostCores();

describe('cancel grace period', () => {
  it('kills a runner that ignores cancel once the grace period is over', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-grace-'));
    fs.mkdirSync(path.join(home, 'workspace'));
    const thread = scriptedThread([{ text: 'x' }]);
    fs.writeFileSync(path.join(home, 'workspace', 't.json'), JSON.stringify(thread));
    const core = await startCore({ home, runnerEntry: path.resolve('tests/support/stubborn-runner.ts'), cancelGraceMs: 500 });
    const pushes: HostPush[] = [];
    const conn = core.connect((p) => pushes.push(p), { unbounded: true });
    await conn.request('thread.open', { path: 't.json' });
    await conn.request('stream.subscribe', {});
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    const deadline = Date.now() + 30_000;
    while (!pushes.some((p) => p.type === 'llm_delta') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const pid = core.supervisor.get(runId)!.pid!;
    await conn.request('run.cancel', { runId });
    while (!pushes.some((p) => p.type === 'run_ended') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const ended = pushes.find((p) => p.type === 'run_ended') as { status: string } | undefined;
    expect(ended?.status).toBe('cancelled');
    expect(() => process.kill(pid, 0)).toThrow(); // the process is gone
    const llm = pushes.flatMap((p) => (p.type === 'tree_update' ? p.nodes : [])).filter((n) => n.kind === 'llm').at(-1)!;
    expect(llm.status).toBe('cancelled');
    expect(llm.output).toMatchObject({ text: 'thinking forever' });
    // The host goes on: the thread (with the cancelled run's ref) accepts edits again.
    const { version } = (await conn.request('thread.open', { path: 't.json' })) as { version: number };
    await expect(conn.request('thread.edit', { threadId: thread.id, baseVersion: version, patches: [{ op: 'replace', path: ['title'], value: 'after' }] })).resolves.toMatchObject({ version: version + 1 });
  }, 60_000);
});
