/**
 * Replay and time travel (docs/architecture.md#branches-and-time-travel), end to end: the host
 * core, the real runner, the real `openai` client (an `openai-completions` provider) against the
 * local SSE server, which counts every request. The thread is a 3-call ReAct run whose tool is
 * an agent tool on the same provider, so running the tool is a request too.
 * - A replay (`model.replay.runId`) plays call k on turn k: its raw requests are the original's,
 *   byte for byte, and neither the provider nor the tool is contacted.
 * - Time travel from call k plays calls 1..k-1 back and reuses their tools' results: the server
 *   sees only call k and later; call k's request is byte-identical to the original call k's
 *   (the rebuilt conversation is exact); the thread's messages after the run's start are
 *   replaced by the new run's, and its run ref says where it came from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';
import type { Tool } from '../../../shared/thread/tools';
import { modelCalls } from '../../../shared/thread/run-points';
import { RequestReader } from '../../../shared/protocol/request-delta';
import { threadWith, userMessage } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { runFile } from '../../../main/core/journal/journal';
import { hostCores, makeHome, rejection, waitFor, watchThreads, writeThread } from '../../support/host-harness';
import { startSseServer, type ScriptedReply, type SseServer } from '../../support/sse-server';
import { chatChunk, chatSse, chatTextSse, chatUsageChunk } from '../providers/fixtures';

const startCore = hostCores();
let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const askHelper: Tool = {
  type: 'agent',
  name: 'ask_helper',
  description: 'Asks the helper agent.',
  threadPath: 'helper.json',
  parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
};

/** A model reply calling ask_helper with `input`, as call `id`. */
function callsHelper(id: string, input: string): ScriptedReply {
  const args = JSON.stringify({ input });
  return {
    stream: [
      chatSse([
        chatChunk({ role: 'assistant', content: null }),
        chatChunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'ask_helper', arguments: '' } }] }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 5) } }] }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] }),
        chatChunk({}, 'tool_calls'),
        chatUsageChunk(20, 8),
      ]),
    ],
  };
}
const says = (text: string): ScriptedReply => ({ stream: [chatTextSse(text.split(/(?<= )/))] });

/** A home whose workspace has the ReAct thread `main.json` and the agent tool's `helper.json`, both on provider `local`. */
function setup(): { home: string; thread: Thread } {
  const model = { provider: 'local', id: 'gpt-test', params: {} };
  const thread = threadWith({ systemPrompt: 'Use the helper.', tools: [askHelper], messages: [userMessage('Plan a trip.', 'u1')] }, { model, title: 'main' });
  thread.settings = { autoRunTools: true, maxTurns: 6 };
  const helper = threadWith({ systemPrompt: 'You help.' }, { model, title: 'helper' });
  const home = makeHome();
  writeThread(home, 'main.json', thread);
  writeThread(home, 'helper.json', helper);
  fs.mkdirSync(path.join(home, 'settings'));
  fs.writeFileSync(
    path.join(home, 'settings', 'providers.json'),
    JSON.stringify({ providers: [{ id: 'local', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: 'sk-local-test-123456' }] }),
  );
  return { home, thread };
}

/** The original run: call 1 asks the helper, call 2 asks again, call 3 answers; 5 requests in all. */
const ORIGINAL: ScriptedReply[] = [callsHelper('call_a', 'one'), says('Helper one said yes.'), callsHelper('call_b', 'two'), says('Helper two said no.'), says('Done: go by train.')];

/** Starts a run, waits for its end; returns its record. */
async function run(w: Awaited<ReturnType<typeof watchThreads>>, threadId: string, params: Record<string, unknown> = {}): Promise<RunRecord> {
  const { runId } = (await w.conn.request('run.start', { threadId, mode: 'react', ...params })) as { runId: string };
  await waitFor(() => w.client.ended.get(runId), 30_000, `run ${runId} to end`);
  return (await w.conn.request('run.get', { threadId, runId })) as RunRecord;
}

/** The raw request bodies of a run's own model calls, as JSON text, in call order (each stored as what it adds to the previous). */
function requestsOf(rec: RunRecord): string[] {
  const reader = new RequestReader(rec.records);
  return modelCalls(rec).map((c) => JSON.stringify(reader.at(rec.records.findIndex((r) => r.nodeId === c.id))));
}

/** Messages without their run-made ids and timing (what a re-run can reproduce). */
function content(thread: Thread): unknown[] {
  return thread.context.messages.map((m) => (m.role === 'user' ? m : { content: m.content, toolCalls: m.toolCalls, stopReason: m.stopReason }));
}

/** A fresh host core whose `main.json` has made the original run (5 requests to the server, counted from `first`). */
async function withOriginalRun() {
  const { home, thread } = setup();
  const core = await startCore({ home, runnerEntry: bundledRunner() });
  const w = await watchThreads(core, 'main.json');
  const first = server.requests.length;
  server.reply(...ORIGINAL);
  const original = await run(w, thread.id);
  return { core, w, thread, original, first, home };
}

describe('replay and time travel', () => {
  it('a replay plays call k on turn k: raw requests byte-identical, no provider or tool contacted', async () => {
    const { core, w, thread, original } = await withOriginalRun();
    const after = core.threads.get(thread.id).thread;
    // Back to the start, on the replay provider playing the original run.
    await w.conn.request('thread.edit', {
      threadId: thread.id,
      baseVersion: core.threads.get(thread.id).version,
      patches: [
        { op: 'replace', path: ['context', 'messages'], value: [userMessage('Plan a trip.', 'u1')] },
        { op: 'replace', path: ['model'], value: { provider: 'replay', id: 'gpt-test', params: { extra: { replaySpeed: 0 } }, replay: { runId: original.runId } } },
      ],
    });
    const before = server.requests.length;
    const replay = await run(w, thread.id);
    expect(replay.status).toBe('completed');
    expect(server.requests.length).toBe(before);
    expect(requestsOf(replay)).toEqual(requestsOf(original));
    expect(requestsOf(replay)).toHaveLength(3);
    // The tools were not run: their results are the recorded ones, and no agent ran under them.
    const tools = replay.nodes.filter((n) => n.kind === 'tool');
    expect(tools.map((n) => n.attrs?.replayedFrom)).toEqual([original.runId, original.runId]);
    expect(replay.nodes.some((n) => n.kind === 'agent')).toBe(false);
    expect(content(core.threads.get(thread.id).thread)).toEqual(content(after));
  });

  it('time travel from call 2: the provider sees calls 2 and later only, call 2 byte-identical; the thread takes the new run', async () => {
    const { core, w, thread, original, first } = await withOriginalRun();
    const originalBodies = server.requests.slice(first).map((r) => r.body);
    expect(originalBodies).toHaveLength(5); // 3 model calls, 2 runs of the agent tool
    expect(modelCalls(original)).toHaveLength(3);

    const before = server.requests.length;
    // Live from call 2: it asks the helper something else this time, then answers.
    server.reply(callsHelper('call_c', 'three'), says('Helper three said maybe.'), says('Done: go by bus.'));
    const travel = await run(w, thread.id, { fromRun: { runId: original.runId, fromCall: 2 } });
    expect(travel.status).toBe('completed');
    const seen = server.requests.slice(before).map((r) => r.body);
    expect(seen).toHaveLength(3); // call 2, the helper it asked, call 3: nothing for call 1 or its tool
    // Call 2 went out exactly as in the original run: the played-back call 1 and its reused tool result rebuilt the same conversation.
    expect(JSON.stringify(seen[0])).toBe(JSON.stringify(originalBodies[2]));
    expect(requestsOf(travel)[0]).toBe(requestsOf(original)[0]);
    expect(requestsOf(travel)[1]).toBe(requestsOf(original)[1]);

    const calls = modelCalls(travel);
    expect(calls.map((c) => c.attrs?.replayedFrom)).toEqual([original.runId, undefined, undefined]);
    const tools = travel.nodes.filter((n) => n.kind === 'tool');
    expect(tools.map((n) => n.attrs?.replayedFrom)).toEqual([original.runId, undefined]);
    expect(travel.nodes.filter((n) => n.kind === 'agent')).toHaveLength(1);
    expect(travel.fromRun).toEqual({ runId: original.runId, fromCall: 2 });

    const now = core.threads.get(thread.id).thread;
    expect(now.context.messages).toHaveLength(4); // u1, call 1 (played back), call 2, call 3: replaced, not appended
    expect(now.context.messages[0].id).toBe('u1');
    const text = (i: number) => now.context.messages[i].content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    expect(now.context.messages[1].role === 'assistant' && now.context.messages[1].toolCalls?.[0]).toMatchObject({ id: 'call_a', output: { content: [{ type: 'text', text: 'Helper one said yes.' }] } });
    expect(text(3)).toBe('Done: go by bus.');
    expect(now.runRefs.find((r) => r.id === travel.runId)?.from).toEqual({ runId: original.runId, call: 2 });
  });

  it('time travel from the last call contacts the provider once; a missing call or a changed thread is refused', async () => {
    const { core, w, thread, original } = await withOriginalRun();
    const before = server.requests.length;
    server.reply(says('Done: walk.'));
    const travel = await run(w, thread.id, { fromRun: { runId: original.runId, fromCall: 3 } });
    expect(travel.status).toBe('completed');
    expect(server.requests.length - before).toBe(1);

    const none = await rejection(w.conn.request('run.start', { threadId: thread.id, mode: 'react', fromRun: { runId: original.runId, fromCall: 4 } }));
    expect(none).toMatchObject({ code: 'bad_request', message: `Run ${original.runId} made 3 model call(s); there is no call 4 to re-run from.` });
    await w.conn.request('thread.edit', {
      threadId: thread.id,
      baseVersion: core.threads.get(thread.id).version,
      patches: [{ op: 'replace', path: ['context', 'messages'], value: [userMessage('Something else.', 'u9')] }],
    });
    const changed = await rejection(w.conn.request('run.start', { threadId: thread.id, mode: 'react', fromRun: { runId: original.runId, fromCall: 1 } }));
    expect(changed.code).toBe('thread_changed');
    expect(server.requests.length - before).toBe(1);
  });

  it('a damaged run file is refused for time travel and branching, naming the file and the place; nothing is sent', async () => {
    const { w, thread, original, home } = await withOriginalRun();
    const file = runFile(home, thread.id, original.runId);
    // The client sees the home folder as $STEPWISE_HOME, never its absolute path.
    const shown = `$STEPWISE_HOME${file.slice(home.length)}`;
    const rec = JSON.parse(fs.readFileSync(file, 'utf8')) as RunRecord;
    const llm = modelCalls(rec)[1];
    fs.writeFileSync(file, JSON.stringify({ ...rec, nodes: rec.nodes.map((n, i) => (i === 2 ? { ...n, status: 'fine' } : n)) }));
    const before = server.requests.length;
    const travel = await rejection(w.conn.request('run.start', { threadId: thread.id, mode: 'react', fromRun: { runId: original.runId, fromCall: 2 } }));
    expect(travel.code).toBe('bad_run_file');
    expect(travel.message).toContain(`${shown}:/nodes/2/status: `);
    expect(travel.message).toContain('the run file is damaged: it cannot be re-run or branched from');
    const branch = await rejection(w.conn.request('thread.branch', { threadId: thread.id, runId: original.runId, nodeId: llm.id }));
    expect(branch).toMatchObject({ code: 'bad_run_file', message: travel.message });
    // A run file that is not a run at all: not "made 0 model calls".
    fs.writeFileSync(file, JSON.stringify({ runId: original.runId }));
    const empty = await rejection(w.conn.request('run.start', { threadId: thread.id, mode: 'react', fromRun: { runId: original.runId, fromCall: 1 } }));
    expect(empty.code).toBe('bad_run_file');
    expect(empty.message.startsWith(`${shown}:/`)).toBe(true);
    expect(server.requests.length).toBe(before);
  });
});
