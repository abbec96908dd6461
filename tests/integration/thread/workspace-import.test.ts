/**
 * `workspace.import` through the host core as a client drives it: an LLM Space 4.x file becomes
 * a thread file with its run history as run records (listed, readable, restorable), the format
 * is named, what could not be kept is listed; bad input gets an error naming the place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord, WorkspaceEntry } from '../../../shared/protocol/host-api';
import type { RunRef, Thread } from '../../../shared/thread/schema';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, RecordingClient, rejection, hostCores } from '../../support/host-harness';

const startCore = hostCores();
const FIX = path.resolve(__dirname, '../../fixtures/threads');
type ImportResult = { entry: WorkspaceEntry; format: string; formatName: string; runs: number; notKept: string[] };

describe('workspace.import', () => {
  it('writes an LLM Space thread with its run records, names the format and lists what was not kept', async () => {
    const home = makeHome();
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const conn = core.connect(new RecordingClient().send);
    const text = fs.readFileSync(path.join(FIX, 'llmspace-v4.json'), 'utf8');
    const r = (await conn.request('workspace.import', { text, name: 'triage.json' })) as ImportResult;
    expect(r).toMatchObject({ format: 'llmspace', formatName: 'LLM Space thread file', runs: 2, entry: { kind: 'thread', title: 'Screenshot triage' } });
    expect(r.notKept).toEqual(expect.arrayContaining([expect.stringMatching(/^\/context\/variables\/current_date: LLM Space computes currentDate/), expect.stringMatching(/^\/modelName: /)]));
    const { thread } = (await conn.request('thread.open', { path: r.entry.path })) as { thread: Thread };
    expect(thread.evaluations).toHaveLength(2);
    expect(thread.context.scenarios?.map((s) => s.name)).toEqual(['web', 'mobile']);
    const refs = (await conn.request('run.list', { threadId: thread.id })) as RunRef[];
    expect(refs.map((x) => x.id)).toEqual(['run-a', 'run-b']);
    const run = (await conn.request('run.get', { threadId: thread.id, runId: 'run-b' })) as RunRecord;
    expect(run.nodes.filter((n) => n.kind === 'llm')).toHaveLength(2);
    expect((run.messages as { id: string }[]).map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
  });

  it('imports pasted request JSON (no name), and a Stepwise thread as a copy with a new id', async () => {
    const home = makeHome();
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const conn = core.connect(new RecordingClient().send);
    const pasted = (await conn.request('workspace.import', { text: fs.readFileSync(path.join(FIX, 'anthropic-documents.json'), 'utf8') })) as ImportResult;
    expect(pasted).toMatchObject({ format: 'anthropic-messages', formatName: 'Anthropic Messages request', runs: 0, notKept: ['/system/0/cache_control: cache_control on the system prompt is not kept (the system prompt is one text)'] });
    const { thread } = (await conn.request('thread.open', { path: pasted.entry.path })) as { thread: Thread };
    const copy = (await conn.request('workspace.import', { text: JSON.stringify(thread), name: 'again.json' })) as ImportResult;
    expect(copy.format).toBe('stepwise');
    expect(copy.entry.id).not.toBe(thread.id);
    expect(copy.entry.path).not.toBe(pasted.entry.path);
  });

  it('refuses what it cannot read, naming the place and never a host path', async () => {
    const home = makeHome();
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const conn = core.connect(new RecordingClient().send);
    const syntax = await rejection(conn.request('workspace.import', { text: '{"messages": [', name: 'x.json' }));
    expect(syntax).toMatchObject({ code: 'bad_request' });
    expect(syntax.message).toMatch(/^"x\.json" is not JSON: line 1, column 15/);
    const unknown = await rejection(conn.request('workspace.import', { text: '{"hello": 1}' }));
    expect(unknown.message).toMatch(/^the pasted text: unrecognised format: looked for a Stepwise thread/);
    const bad = await rejection(conn.request('workspace.import', { text: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x' } }] }] }) }));
    expect(bad.message).toMatch(/\/messages\/0\/content\/0\/image_url\/url: an image URL must be http\(s\)/);
    expect(`${syntax.message}${unknown.message}${bad.message}`).not.toContain(home);
    expect((await conn.request('workspace.list', {})) as WorkspaceEntry[]).toEqual([]);
  });
});
