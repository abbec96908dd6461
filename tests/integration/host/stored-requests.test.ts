/**
 * docs/architecture.md#stored-requests: a ReAct run's file keeps each model call's request as
 * what it adds to the call before; read back through the host, every request is whole again. A
 * hand-damaged record still lets the run open (the answer matches the contract the renderer
 * checks) and its call, and every call after it, reads as a note, never as a wrong request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../shared/protocol/host-api';
import { HOST_METHODS } from '../../../shared/protocol/contract/host-methods';
import { problems } from '../../../shared/protocol/contract/define';
import { RequestReader, type RequestBase } from '../../../shared/protocol/request-delta';
import { reactThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { hostCores, makeHome, waitFor, watchThreads } from '../../support/host-harness';

const startCore = hostCores();
const TURNS = 12;

describe('stored requests', () => {
  it('a run file keeps what each request adds; read back whole; a damaged record reads as a note', async () => {
    const t = reactThread(TURNS, { type: 'builtin', name: 'read' }, () => ({ path: 'page.md' }), { tokensPerSecond: 5000 });
    const home = makeHome({ 'loop.json': t });
    fs.mkdirSync(path.join(home, 'work', t.id), { recursive: true });
    fs.writeFileSync(path.join(home, 'work', t.id, 'page.md'), 'A page.');
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20 });
    const { client, conn } = await watchThreads(core, 'loop.json');
    const { runId } = (await conn.request('run.start', { threadId: t.id, mode: 'react' })) as { runId: string };
    await waitFor(() => client.ended.get(runId), 60_000, 'run ended');
    const file = path.join(home, 'runs', t.id, `${runId}.json`);
    await waitFor(() => fs.existsSync(file), 10_000, 'run file');
    const onDisk = JSON.parse(fs.readFileSync(file, 'utf8')) as RunRecord;
    const calls = onDisk.records.length;
    expect(calls).toBeGreaterThan(2);
    // On disk: the last call keeps only its new messages; read whole, it has every one.
    const last = onDisk.records[calls - 1];
    const whole = new RequestReader(onDisk.records).at(calls - 1) as { messageCount: number; messages: unknown[] };
    expect(whole.messages).toHaveLength(whole.messageCount);
    expect((last.request as { messages: unknown[] }).messages.length).toBeLessThan(3);
    expect((last.requestBase as RequestBase).prefix.messages + (last.request as { messages: unknown[] }).messages.length).toBe(whole.messageCount);

    // Damage the second call's record by hand: the run still opens, and that call and the ones
    // after it read as notes naming it; the first call still reads whole.
    const damaged = structuredClone(onDisk);
    damaged.records[1].requestBase = 'garbage';
    fs.writeFileSync(file, JSON.stringify(damaged));
    const got = (await conn.request('run.get', { threadId: t.id, runId })) as RunRecord;
    expect(problems(HOST_METHODS['run.get'].result, got)).toEqual([]);
    const reader = new RequestReader(got.records);
    expect(reader.at(0)).toEqual(new RequestReader(onDisk.records).at(0));
    const note = { omitted: `Not kept: the record of node ${got.records[1].nodeId} has a malformed requestBase.` };
    expect(reader.at(1)).toEqual(note);
    expect(reader.at(calls - 1)).toEqual(note);
  }, 90_000);
});
