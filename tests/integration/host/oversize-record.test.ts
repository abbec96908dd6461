/**
 * docs/architecture.md#backpressure: a model call whose raw request and events are over the
 * bound for one record (a thread of large images) is not kept, and the run keeps a record of
 * that call saying so instead of none; the run itself completes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../shared/protocol/host-api';
import { scriptedThread, userMessage } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, waitFor, hostCores, watchThreads } from '../../support/host-harness';

const startCore = hostCores();

describe('a model call record over the bound', () => {
  it('leaves a record saying it was not kept, and the run completes', async () => {
    const t = scriptedThread([{ text: 'Seen.' }], { messages: [userMessage('x'.repeat(20_000))] });
    const home = makeHome({ 'big.json': t });
    const logged: string[] = [];
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20, limits: { maxRecordBytes: 8_000 }, log: (_l, m) => logged.push(m) });
    const { client, conn } = await watchThreads(core, 'big.json');
    const { runId } = (await conn.request('run.start', { threadId: t.id, mode: 'step' })) as { runId: string };
    expect(await waitFor(() => client.ended.get(runId), 30_000, 'run ended')).toBe('completed');
    const rec = JSON.parse(fs.readFileSync(path.join(home, 'runs', t.id, `${runId}.json`), 'utf8')) as RunRecord;
    const llm = rec.nodes.find((n) => n.kind === 'llm')!;
    expect(rec.records).toHaveLength(1);
    expect(rec.records[0]).toMatchObject({ nodeId: llm.id, api: 'scripted', events: [] });
    expect((rec.records[0].request as { omitted: string }).omitted).toMatch(/^Not kept: the raw request and stream events of this call \(\d+ bytes exceeds the bound of 8000 bytes\)\.$/);
    expect(logged.some((m) => /rejected a frame .*llm_record of \d+ bytes exceeds the bound of 8000 bytes/.test(m))).toBe(true);
  }, 60_000);
});
