/**
 * `thread.branch` through the host core (docs/architecture.md#branches-and-time-travel): a branch
 * file beside its source (in its folder, titled "<title> (branch)", then "(branch 2)"), after a
 * message or at a node of a real ReAct run (the conversation rebuilt from the run record), its
 * `branchOf` in the file and in the workspace list (how a source finds its branches); hostile
 * params refused with the reason, the workspace unchanged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord, WorkspaceEntry } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';
import type { Tool } from '../../../shared/thread/tools';
import { modelCalls } from '../../../shared/thread/run-points';
import { validateThread } from '../../../shared/thread/validate';
import { reactThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { hostCores, makeHome, rejection, waitFor, watchThreads } from '../../support/host-harness';

const startCore = hostCores();

/** A built-in tool: ReAct runs it without stopping, and it needs no server. */
const lookup: Tool = { type: 'builtin', name: 'lookup', parameters: { type: 'object' } };

describe('thread.branch', () => {
  it('branches after a message and at nodes of a run, beside the source, listed with branchOf', async () => {
    const thread = reactThread(3, lookup, (i) => ({ turn: i }), { tokensPerSecond: 2000, title: 'Trip' });
    const home = makeHome();
    fs.mkdirSync(path.join(home, 'workspace', 'plans'));
    fs.writeFileSync(path.join(home, 'workspace', 'plans', 'Trip.json'), JSON.stringify(thread));
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const w = await watchThreads(core, 'plans/Trip.json');
    const { runId } = (await w.conn.request('run.start', { threadId: thread.id, mode: 'react' })) as { runId: string };
    await waitFor(() => w.client.ended.get(runId), 30_000, 'the run to end');
    const source = core.threads.get(thread.id).thread;
    expect(source.context.messages).toHaveLength(4); // the user message, then 3 model calls
    const rec = (await w.conn.request('run.get', { threadId: thread.id, runId })) as RunRecord;
    const [call1, call2] = modelCalls(rec);
    const ids = source.context.messages.map((m) => m.id);

    const pushesBefore = w.client.pushes.length;
    const byMessage = (await w.conn.request('thread.branch', { threadId: thread.id, messageId: ids[1] })) as WorkspaceEntry;
    expect(byMessage).toMatchObject({ path: 'plans/Trip (branch).json', title: 'Trip (branch)', branchOf: { threadId: thread.id, title: 'Trip', messageId: ids[1] } });
    expect(w.client.pushes.slice(pushesBefore).some((p) => p.type === 'workspace_changed')).toBe(true);
    const file = JSON.parse(fs.readFileSync(path.join(home, 'workspace', byMessage.path), 'utf8')) as Thread;
    expect(validateThread(file).ok).toBe(true);
    expect(file.id).not.toBe(thread.id);
    expect(file.runRefs).toEqual([]);
    expect(file.context.messages).toEqual(source.context.messages.slice(0, 2));
    expect(file.context.tools).toEqual(source.context.tools);
    expect(file.model).toEqual(source.model);

    // At the second model call: the conversation as it was there, its message the last.
    const atCall = (await w.conn.request('thread.branch', { threadId: thread.id, runId, nodeId: call2.id })) as WorkspaceEntry;
    expect(atCall).toMatchObject({ path: 'plans/Trip (branch 2).json', branchOf: { threadId: thread.id, runId, nodeId: call2.id, messageId: ids[2] } });
    const atCallFile = JSON.parse(fs.readFileSync(path.join(home, 'workspace', atCall.path), 'utf8')) as Thread;
    expect(atCallFile.context.messages.map((m) => m.id)).toEqual(ids.slice(0, 3));

    // At the tool node of the first call: that call's message with the tool's result.
    const tool = rec.nodes.find((n) => n.kind === 'tool' && n.parentId === call1.id)!;
    const atTool = (await w.conn.request('thread.branch', { threadId: thread.id, runId, nodeId: tool.id })) as WorkspaceEntry;
    const atToolFile = JSON.parse(fs.readFileSync(path.join(home, 'workspace', atTool.path), 'utf8')) as Thread;
    expect(atToolFile.context.messages.map((m) => m.id)).toEqual(ids.slice(0, 2));
    const m1 = atToolFile.context.messages[1];
    expect(m1.role === 'assistant' && m1.toolCalls?.[0].output).toEqual(tool.output);

    // The source finds its branches in the workspace list.
    const list = (await w.conn.request('workspace.list', {})) as WorkspaceEntry[];
    expect(list.filter((e) => e.branchOf?.threadId === thread.id).map((e) => e.title).sort()).toEqual(['Trip (branch 2)', 'Trip (branch 3)', 'Trip (branch)']);
    expect(list.find((e) => e.id === thread.id)?.branchOf).toBeUndefined();
  });

  it('refuses hostile or impossible params with the reason and writes nothing', async () => {
    const thread = reactThread(1, lookup, () => ({}), { tokensPerSecond: 2000, title: 'Solo' });
    const home = makeHome({ 'Solo.json': thread });
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const w = await watchThreads(core, 'Solo.json');
    const msg = thread.context.messages[0].id;
    const cases: [Record<string, unknown>, string, string | RegExp][] = [
      [{ threadId: thread.id }, 'bad_request', 'thread.branch: give either messageId, or runId and nodeId'],
      [{ threadId: thread.id, messageId: msg, runId: 'r' }, 'bad_request', 'thread.branch: give either messageId, or runId and nodeId'],
      [{ threadId: thread.id, runId: 'r' }, 'bad_request', 'thread.branch: give either messageId, or runId and nodeId'],
      [{ threadId: thread.id, messageId: 'nope' }, 'not_found', `thread.branch: thread ${thread.id} has no message nope`],
      [{ threadId: thread.id, runId: '../../etc', nodeId: 'n' }, 'bad_request', /run id/],
      [{ threadId: thread.id, runId: 'no-such-run', nodeId: 'n' }, 'not_found', /no run no-such-run/],
      [{ threadId: 'other', messageId: msg }, 'not_open', 'thread other is not open'],
      [{ threadId: thread.id, messageId: '' }, 'bad_request', /messageId/],
      [{ threadId: thread.id, messageId: 7 }, 'bad_request', /messageId/],
    ];
    for (const [params, code, message] of cases) {
      const err = await rejection(w.conn.request('thread.branch', params as never));
      expect(err.code, JSON.stringify(params)).toBe(code);
      expect(err.message).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
      expect(err.message).not.toContain(home);
    }
    expect(fs.readdirSync(path.join(home, 'workspace'))).toEqual(['Solo.json']);
  });
});
