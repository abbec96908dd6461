/**
 * The host core's request API (shared/protocol/host-api.ts) as a transport drives it:
 * workspace and thread requests with versioned edits, edits refused while a real run runs,
 * provider settings written 0600 with keys masked (and removed with their keys), and a clear
 * error when MCP is absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderInfo, RunRecord, WorkspaceEntry } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, RecordingClient, waitFor, words, rejection, hostCores } from '../../support/host-harness';

const startCore = hostCores();

describe('host requests', () => {
  it('creates, opens and edits threads with versions, pushing thread_patch to the other window', async () => {
    const home = makeHome();
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const a = new RecordingClient();
    const b = new RecordingClient();
    const ca = core.connect(a.send);
    const cb = core.connect(b.send);
    const entry = (await ca.request('workspace.create', { title: 'First' })) as WorkspaceEntry;
    expect((await ca.request('workspace.list', {})) as WorkspaceEntry[]).toEqual([expect.objectContaining({ path: entry.path, kind: 'thread' })]);
    const opened = (await ca.request('thread.open', { path: entry.path })) as { thread: Thread; version: number };
    await cb.request('thread.open', { path: entry.path });
    const id = opened.thread.id;
    expect(await ca.request('thread.edit', { threadId: id, baseVersion: 0, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'Be brief.' }] })).toEqual({ version: 1 });
    const patch = b.pushes.find((p) => p.type === 'thread_patch');
    expect(patch).toMatchObject({ threadId: id, version: 1, origin: `client:${ca.id}` });
    const stale = await rejection(cb.request('thread.edit', { threadId: id, baseVersion: 0, patches: [{ op: 'replace', path: ['title'], value: 'x' }] }));
    expect(stale.code).toBe('version_mismatch');
    const outside = await rejection(ca.request('thread.open', { path: '../escape.json' }));
    expect(outside.message).toMatch(/outside|escape/i);
  });

  it('refuses edits while the thread runs and accepts them after', async () => {
    const thread = scriptedThread([{ text: words(200) }], { tokensPerSecond: 80 });
    const home = makeHome({ 'run.json': thread });
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const c = new RecordingClient();
    const conn = core.connect(c.send);
    await conn.request('thread.open', { path: 'run.json' });
    await conn.request('stream.subscribe', { threadId: thread.id });
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    const again = await rejection(conn.request('run.start', { threadId: thread.id, mode: 'step' }));
    expect(again.code).toBe('thread_running');
    const edit = { threadId: thread.id, baseVersion: 0, patches: [{ op: 'replace', path: ['title'], value: 'during' }] };
    expect((await rejection(conn.request('thread.edit', edit))).code).toBe('thread_running');
    await waitFor(() => c.deltas > 0, 20_000, 'streaming');
    await conn.request('run.cancel', { runId });
    await waitFor(() => c.ended.get(runId), 20_000, 'run end');
    expect(c.ended.get(runId)).toBe('cancelled');
    const version = core.threads.get(thread.id).version;
    expect(await conn.request('thread.edit', { ...edit, baseVersion: version })).toEqual({ version: version + 1 });
    const rec = (await conn.request('run.get', { threadId: thread.id, runId })) as { status: string };
    expect(rec.status).toBe('cancelled');
  });

  it('saves providers 0600 with keys masked, and answers a clear error without MCP', async () => {
    const home = makeHome();
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const conn = core.connect(() => {});
    const list = (await conn.request('settings.saveProvider', { id: 'local', api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-secret-123456789' })) as ProviderInfo[];
    expect(list.map((p) => p.id)).toEqual(['openai', 'anthropic', 'scripted', 'replay', 'local']);
    const local = list.find((p) => p.id === 'local')!;
    expect(local.keyHint).toBe('sk-…6789');
    expect(JSON.stringify(list)).not.toContain('secret');
    const file = path.join(home, 'settings', 'providers.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).providers[0].apiKey).toBe('sk-secret-123456789');
    const bad = await rejection(conn.request('settings.saveProvider', { id: 'x', api: 'telepathy' }));
    expect(bad.message).toMatch(/api: must be one of/);
    const mcp = await rejection(conn.request('mcp.servers', {}));
    expect(mcp.code).toBe('mcp_unavailable');
  });

  it('removes a provider added in Settings with its key, refuses built-ins with nothing saved and unknown ids, and a thread on it then fails naming it', async () => {
    const thread: Thread = { ...scriptedThread([]), model: { provider: 'local', id: 'llama3', params: {} } };
    const home = makeHome({ 'local.json': thread });
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const c = new RecordingClient();
    const conn = core.connect(c.send);
    await conn.request('settings.saveProvider', { id: 'local', api: 'openai-completions', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-remove-me-123456' });
    await conn.request('settings.saveProvider', { id: 'other', api: 'openai-completions', apiKey: 'sk-keep-me-654321' });
    const file = path.join(home, 'settings', 'providers.json');
    expect(fs.readFileSync(file, 'utf8')).toContain('sk-remove-me-123456');

    const list = (await conn.request('settings.removeProvider', { id: 'local' })) as ProviderInfo[];
    expect(list.map((p) => p.id)).toEqual(['openai', 'anthropic', 'scripted', 'replay', 'other']);
    expect(list.filter((p) => p.builtin).map((p) => p.id)).toEqual(['openai', 'anthropic', 'scripted', 'replay']);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-remove-me-123456');
    expect(text).not.toContain('"local"');
    expect(text).toContain('sk-keep-me-654321');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(((await conn.request('settings.providers', {})) as ProviderInfo[]).map((p) => p.id)).not.toContain('local');

    const again = await rejection(conn.request('settings.removeProvider', { id: 'local' }));
    expect(again).toMatchObject({ code: 'not_found', message: expect.stringContaining('Provider "local" is not in') });
    for (const id of ['scripted', 'openai']) {
      const builtin = await rejection(conn.request('settings.removeProvider', { id }));
      // A client is never shown an absolute path: the file is named from $STEPWISE_HOME.
      expect(builtin).toMatchObject({ code: 'bad_request', message: `"${id}" is a built-in provider with nothing saved in $STEPWISE_HOME/settings/providers.json; there is nothing to remove or reset.` });
    }
    expect((await rejection(conn.request('settings.removeProvider', {}))).message).toBe('settings.removeProvider: /id: Expected required property');

    // The thread still names the removed provider, opens as it was, and its run fails saying which provider is missing.
    const opened = (await conn.request('thread.open', { path: 'local.json' })) as { thread: Thread };
    expect(opened.thread.model).toEqual({ provider: 'local', id: 'llama3', params: {} });
    await conn.request('stream.subscribe', { threadId: thread.id });
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    await waitFor(() => c.ended.get(runId), 20_000, 'run end');
    expect(c.ended.get(runId)).toBe('error');
    const rec = (await conn.request('run.get', { threadId: thread.id, runId })) as RunRecord;
    const llm = rec.nodes.find((n) => n.kind === 'llm');
    expect(llm?.error?.message).toMatch(/^Unknown provider "local" \(configured: openai, anthropic, scripted, replay, other\)\. Add it in Settings → Providers\.$/);
    expect(core.threads.get(thread.id).thread.model.provider).toBe('local');
  });
});
