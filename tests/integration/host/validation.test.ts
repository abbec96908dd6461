/**
 * docs/architecture.md#envelopes: the bridge schema-checks every frame. A real child process posts malformed,
 * foreign-run and oversized frames between valid ones; each is rejected and logged, clients
 * never see it, and the run, its thread and the host go on.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedThread } from '../../support/threads';
import { makeHome, readThread, waitFor, hostCores, watchThreads } from '../../support/host-harness';

const startCore = hostCores();

describe('envelope validation', () => {
  it('rejects and logs malformed and oversized frames without harm', async () => {
    const thread = scriptedThread([{ text: 'unused' }]);
    const home = makeHome({ 'bad.json': thread });
    const logs: string[] = [];
    const core = await startCore({
      home,
      runnerEntry: path.resolve(import.meta.dirname, '../../support/bad-runner.ts'),
      log: (level, message) => logs.push(`${level}: ${message}`),
      saveDebounceMs: 10,
    });
    const { client: c, conn } = await watchThreads(core, 'bad.json');
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    await waitFor(() => c.ended.get(runId), 30_000, 'run end');

    expect(c.ended.get(runId)).toBe('completed');
    expect(core.bridge.rejected).toBe(6);
    const rejections = logs.filter((l) => l.includes('rejected a frame'));
    expect(rejections).toHaveLength(6);
    expect(rejections.join('\n')).toMatch(/not an object/);
    expect(rejections.join('\n')).toMatch(/unknown message type "mystery"/);
    expect(rejections.join('\n')).toMatch(/invalid tree_update at \/nodes\/0/);
    expect(rejections.join('\n')).toMatch(/names run "someone-else"/);
    expect(rejections.join('\n')).toMatch(/exceeds the bound/);
    expect(rejections.join('\n')).toMatch(/belongs to run other-run/);
    // Clients saw only valid frames: the one good delta, never the stolen or oversized one.
    const deltas = c.pushes.filter((p) => p.type === 'llm_delta');
    expect(deltas).toHaveLength(1);
    expect(c.textAtClose.get(`${runId}.llm`)).toBe('ok');
    await core.threads.flush();
    expect(readThread(home, 'bad.json').context.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
  });
});
