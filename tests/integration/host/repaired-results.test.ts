/**
 * Runs a host died during (run files left `running`): the next start repairs them, and what each
 * run added goes onto its thread when the thread is opened — a tool step's finished results,
 * never over a result typed into the file meanwhile, never a dry run's; once, also when the
 * thread is opened by several clients at the same moment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostCore } from '../../../main/core/host-core';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { ExecNode } from '../../../shared/protocol/nodes';
import type { AssistantMessage } from '../../../shared/thread/messages';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, sumTool } from '../../support/threads';
import { makeHome, readThread, writeThread } from '../../support/host-harness';

const result = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: false });

/** A run file as a host that died mid-run leaves it. */
function leftRunning(home: string, thread: Thread, runId: string, mode: RunRecord['mode'], nodes: Omit<ExecNode, 'runId'>[], extra: Partial<RunRecord> = {}): string {
  const rec: RunRecord = {
    runId,
    threadId: thread.id,
    mode,
    status: 'running',
    startedAt: 1000,
    lastEventAt: 2000,
    nodes: nodes.map((n) => ({ ...n, runId })),
    records: [],
    baseMessageIds: thread.context.messages.map((m) => m.id),
    ...extra,
  };
  const file = path.join(home, 'runs', thread.id, `${runId}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(rec));
  return file;
}

const readRec = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as RunRecord;

describe('results of runs repaired at start', () => {
  it("a tool step's finished results go onto the pending calls, except one typed into the file meanwhile", async () => {
    const home = makeHome();
    const thread = scriptedThread([], { tools: [sumTool] });
    const calls = ['c1', 'c2', 'c3'].map((id) => ({ id, name: 'get_sum', arguments: { a: 1, b: 2 } }));
    thread.context.messages.push({ id: 'a1', role: 'assistant', content: [], toolCalls: calls });
    const file = leftRunning(home, thread, 'run-tool', 'tool', [
      { id: 'root', kind: 'run', name: 'tool step', status: 'running', startedAt: 1000 },
      { id: 't1', parentId: 'root', kind: 'tool', name: 'get_sum', toolCallId: 'c1', status: 'completed', startedAt: 1100, endedAt: 1200, output: result('3') },
      { id: 't2', parentId: 'root', kind: 'tool', name: 'get_sum', toolCallId: 'c2', status: 'completed', startedAt: 1100, endedAt: 1300, output: result('run says 3') },
      { id: 't3', parentId: 'root', kind: 'tool', name: 'get_sum', toolCallId: 'c3', status: 'running', startedAt: 1100 },
    ]);
    // After the crash, the user typed c2's result into the file.
    const typed = structuredClone(thread);
    (typed.context.messages[1] as AssistantMessage).toolCalls![1].output = result('typed 3');
    writeThread(home, 'tools.json', typed);

    const logs: string[] = [];
    const core = await createHostCore({ home, runnerEntry: 'unused.js', log: (_l, m) => logs.push(m), saveDebounceMs: 10 });
    try {
      expect(core.repaired).toEqual(['run-tool']);
      const opened = (await core.connect(() => {}).request('thread.open', { path: 'tools.json' })) as { thread: Thread };
      const outputs = (opened.thread.context.messages[1] as AssistantMessage).toolCalls!.map((c) => c.output);
      expect(outputs).toEqual([result('3'), result('typed 3'), undefined]);
      expect(opened.thread.context.messages).toHaveLength(2);
      expect(opened.thread.runRefs).toEqual([expect.objectContaining({ id: 'run-tool', status: 'interrupted', mode: 'tool' })]);
      expect(logs.some((m) => /tool call c2 already has a result/.test(m))).toBe(true);
      const rec = readRec(file);
      expect(rec.resultPending).toBeUndefined();
      expect(rec.toolOutputs).toEqual([
        { messageId: 'a1', toolCallId: 'c1', output: result('3') },
        { messageId: 'a1', toolCallId: 'c2', output: result('run says 3') },
      ]);
    } finally {
      await core.close();
    }
  });

  it("a dry run's result is kept in its run file only; opens at the same moment apply a result once", async () => {
    const home = makeHome();
    const thread = scriptedThread([]);
    writeThread(home, 'one.json', thread);
    const llm = (id: string, text: string): Omit<ExecNode, 'runId'> => ({ id, parentId: 'root', kind: 'llm', name: 'm', model: 'scripted/scripted', status: 'running', startedAt: 1100, output: { text } });
    const root: Omit<ExecNode, 'runId'> = { id: 'root', kind: 'run', name: 'step', status: 'running', startedAt: 1000 };
    const dry = leftRunning(home, thread, 'run-dry', 'step', [root, llm('l', 'dry text')], { dryRun: true, startedAt: 500 });
    const real = leftRunning(home, thread, 'run-real', 'step', [root, llm('l', 'real text')]);

    const core = await createHostCore({ home, runnerEntry: 'unused.js', log: () => {} });
    try {
      expect(core.repaired.sort()).toEqual(['run-dry', 'run-real']);
      expect(readRec(dry)).toMatchObject({ status: 'interrupted', messages: [expect.objectContaining({ content: [{ type: 'text', text: 'dry text' }] })] });
      expect(readRec(dry).resultPending).toBeUndefined();
      const [a, b] = (await Promise.all([0, 1].map(() => core.connect(() => {}).request('thread.open', { path: 'one.json' })))) as { thread: Thread; version: number }[];
      expect([a.version, a.thread]).toEqual([b.version, b.thread]);
      expect(a.version).toBe(1);
      expect(a.thread.context.messages.map((m) => m.content)).toEqual([thread.context.messages[0].content, [{ type: 'text', text: 'real text' }]]);
      expect(a.thread.runRefs.map((r) => r.id)).toEqual(['run-real']);
      expect(readRec(real).resultPending).toBeUndefined();
    } finally {
      await core.close();
    }
    expect(readThread(home, 'one.json').runRefs.map((r) => r.id)).toEqual(['run-real']);
  });
});
